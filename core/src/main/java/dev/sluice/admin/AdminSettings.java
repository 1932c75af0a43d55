package dev.sluice.admin;

import dev.sluice.core.Cidr;
import dev.sluice.core.ClientIp;
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
 *
 * <p>Whom the endpoint believes about the client's address is the file's {@code client_ip}, kept
 * here rather than read from the rules in force: the kill switch puts no rules in force, and must
 * not make the endpoint believe the ingress's address is the client's.
 */
public final class AdminSettings {
  public static final String DEFAULT_PATH = "/_sluice";

  /** Who may ask when the section names no one: this host only. */
  public static final List<Cidr> LOOPBACK =
      Collections.unmodifiableList(Arrays.asList(Cidr.parse("127.0.0.0/8"), Cidr.parse("::1")));

  private final String path;
  private final List<Cidr> allow;
  private final byte[] tokenDigest;
  private final ClientIp clientIp;
  private final WriteCredentials writers;

  /** An endpoint that takes no writes. */
  public AdminSettings(String path, List<Cidr> allow, String token, ClientIp clientIp) {
    this(path, allow, token, WriteCredentials.NONE, clientIp);
  }

  /**
   * @param path where the endpoint answers: {@code /_sluice}, the full request path, as rules see
   *     it (a web application's context path included)
   * @param token what requests must send as {@code Authorization: Bearer <token>}, or null when
   *     their address suffices (the file said {@code allow_without_token: true})
   * @param writers who may change the rules ({@code admin.write_token}); none turns writes off
   * @param clientIp how the client's address is found: the file's {@code client_ip}
   */
  public AdminSettings(
      String path, List<Cidr> allow, String token, WriteCredentials writers, ClientIp clientIp) {
    this.path = path;
    this.allow = Collections.unmodifiableList(new ArrayList<>(allow));
    this.tokenDigest = token == null ? null : ShortHash.sha256(token);
    this.writers = writers;
    this.clientIp = clientIp;
  }

  String path() {
    return path;
  }

  List<Cidr> allow() {
    return allow;
  }

  ClientIp clientIp() {
    return clientIp;
  }

  /** The name of the write credential whose token {@code given} is; null when none is. */
  String writer(String given) {
    return writers.nameOf(given);
  }

  /** The SHA-256 of the token, or null when the address alone lets a caller in. */
  byte[] tokenDigest() {
    return tokenDigest;
  }

  /** True when the address alone lets a caller in. */
  boolean withoutToken() {
    return tokenDigest == null;
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
    return o instanceof AdminSettings
        && sameSectionAs((AdminSettings) o)
        && clientIp.equals(((AdminSettings) o).clientIp);
  }

  /** Whether {@code other} says the same as this {@code admin} section, whatever its client_ip. */
  public boolean sameSectionAs(AdminSettings other) {
    return other != null
        && path.equals(other.path)
        && allow.toString().equals(other.allow.toString())
        && Arrays.equals(tokenDigest, other.tokenDigest)
        && writers.equals(other.writers);
  }

  @Override
  public int hashCode() {
    return path.hashCode();
  }

  /** Where and whom, never the token. */
  @Override
  public String toString() {
    List<Cidr> proxies = clientIp.trustedProxies();
    return path
        + " for "
        + allow
        + (tokenDigest == null ? " without a token" : " with a token")
        + (writers.isEmpty() ? "" : ", rules written by " + writers)
        + (proxies.isEmpty() ? "" : " behind " + proxies);
  }
}
