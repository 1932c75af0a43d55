package dev.sluice.admin;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.List;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The cookie a browser gets for typing the token into the login form, which then lets it read the
 * endpoint for {@link #LIFETIME_MILLIS}: never the token itself, but its expiry and an HMAC-SHA256
 * of that expiry and the token's digest, keyed by a secret this JVM drew at random and never shows.
 * So nothing is stored per browser, a cookie cannot be made or stretched without the secret, it
 * opens this JVM only (a restart signs everyone out), and it dies with the token it was given for:
 * a reload that changes {@code admin.token} refuses every cookie issued before.
 */
final class LoginCookie {
  static final String NAME = "sluice-admin";
  static final long LIFETIME_MILLIS = 30 * 60 * 1000L;

  private static final String HMAC = "HmacSHA256";
  private final SecretKeySpec secret;

  LoginCookie() {
    byte[] key = new byte[32];
    new SecureRandom().nextBytes(key);
    secret = new SecretKeySpec(key, HMAC);
  }

  /**
   * The {@code Set-Cookie} value for a browser that typed the token of {@code tokenDigest} at
   * {@code nowMillis}: HttpOnly (no script reads it), SameSite=Strict (no other site's page sends
   * it), only under {@code path}, and Secure when the page it was typed on came over HTTPS.
   */
  String issue(byte[] tokenDigest, long nowMillis, String path, boolean secure) {
    long expiry = nowMillis + LIFETIME_MILLIS;
    return NAME
        + "="
        + expiry
        + "."
        + signature(expiry, tokenDigest)
        + "; Path="
        + path
        + "; Max-Age="
        + LIFETIME_MILLIS / 1000
        + "; HttpOnly; SameSite=Strict"
        + (secure ? "; Secure" : "");
  }

  /**
   * True when one of the {@code Cookie} headers holds a cookie this JVM issued for the token of
   * {@code tokenDigest} that has not expired at {@code nowMillis}.
   */
  boolean admits(List<String> cookieHeaders, byte[] tokenDigest, long nowMillis) {
    for (String header : cookieHeaders) {
      for (String cookie : header.split(";")) {
        String pair = cookie.trim();
        if (pair.startsWith(NAME + "=")
            && valid(pair.substring(NAME.length() + 1), tokenDigest, nowMillis)) {
          return true;
        }
      }
    }
    return false;
  }

  private boolean valid(String value, byte[] tokenDigest, long nowMillis) {
    int dot = value.indexOf('.');
    if (dot < 1 || dot > 19) {
      return false;
    }
    long expiry;
    try {
      expiry = Long.parseLong(value.substring(0, dot));
    } catch (NumberFormatException e) {
      return false;
    }
    byte[] given = value.substring(dot + 1).getBytes(StandardCharsets.US_ASCII);
    byte[] expected = signature(expiry, tokenDigest).getBytes(StandardCharsets.US_ASCII);
    return MessageDigest.isEqual(given, expected)
        && nowMillis < expiry
        && expiry <= nowMillis + LIFETIME_MILLIS;
  }

  private String signature(long expiry, byte[] tokenDigest) {
    try {
      Mac mac = Mac.getInstance(HMAC);
      mac.init(secret);
      mac.update(Long.toString(expiry).getBytes(StandardCharsets.US_ASCII));
      mac.update((byte) ':');
      return Base64.getUrlEncoder().withoutPadding().encodeToString(mac.doFinal(tokenDigest));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("every JVM has " + HMAC, e);
    }
  }
}
