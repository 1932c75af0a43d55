package dev.sluice.admin;

import dev.sluice.core.Cidr;
import dev.sluice.support.ShortHash;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * The {@code admin} section: where the endpoint answers and whom. Without the section there is no
 * endpoint at all. The token is kept only as its SHA-256, and compared as such in constant time:
 * digests of equal length leak neither the token's length nor how much of it a guess got right.
 */
public final class AdminSettings {
  public static final String DEFAULT_PATH = "/_sluice";

  /** Who may ask when the section names no one: this host only. */
  public static final List<Cidr> LOOPBACK =
      Collections.unmodifiableList(Arrays.asList(Cidr.parse("127.0.0.0/8"), Cidr.parse("::1")));

  private final String path;
  private final List<Cidr> allow;
  private final byte[] tokenDigest;

  /**
   * @param path where the endpoint answers: {@code /_sluice}, the full request path, as rules see
   *     it (a web application's context path included)
   * @param token what requests must send as {@code Authorization: Bearer <token>}, or null when
   *     their address suffices
   */
  public AdminSettings(String path, List<Cidr> allow, String token) {
    this.path = path;
    this.allow = Collections.unmodifiableList(new ArrayList<>(allow));
    this.tokenDigest = token == null ? null : ShortHash.sha256(token);
  }

  String path() {
    return path;
  }

  List<Cidr> allow() {
    return allow;
  }

  /** True when a token is needed and {@code given} is not it. */
  boolean refusesToken(String given) {
    if (tokenDigest == null) {
      return false;
    }
    return given == null || !MessageDigest.isEqual(tokenDigest, ShortHash.sha256(given));
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof AdminSettings)) {
      return false;
    }
    AdminSettings other = (AdminSettings) o;
    return path.equals(other.path)
        && allow.toString().equals(other.allow.toString())
        && Arrays.equals(tokenDigest, other.tokenDigest);
  }

  @Override
  public int hashCode() {
    return path.hashCode();
  }

  /** Where and whom, never the token. */
  @Override
  public String toString() {
    return path + " for " + allow + (tokenDigest == null ? "" : " with a token");
  }
}
