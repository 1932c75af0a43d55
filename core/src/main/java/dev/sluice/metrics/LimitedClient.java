package dev.sluice.metrics;

import dev.sluice.support.ShortHash;

/**
 * One of the clients a rule denied most recently: immutable. Its getters are JavaBeans-style, as
 * JMX maps them into the open data that jconsole shows.
 */
public final class LimitedClient {
  private final String client;
  private final long denials;
  private final long maxOvercount;

  LimitedClient(String client, long denials, long maxOvercount) {
    this.client = client;
    this.denials = denials;
    this.maxOvercount = maxOvercount;
  }

  /**
   * The client's identity as the rule's key makes it ({@code ip=203.0.113.7}, {@code key=…}, parts
   * of a composite key joined by {@code &}), or, unless the operator chose raw identities, with
   * each value replaced by the first 12 hex digits of its SHA-256 ({@code ip=5c1f0a9d3e27}).
   */
  public String getClient() {
    return client;
  }

  /** Denials counted in the last one to two minutes; at most {@link #getMaxOvercount} too many. */
  public long getDenials() {
    return denials;
  }

  /** How many of the denials may belong to clients this one displaced from the sketch. */
  public long getMaxOvercount() {
    return maxOvercount;
  }

  /**
   * {@code identity} with its values hashed: API keys and user names must not reach dashboards and
   * their databases. It hides a value, it does not anonymise it: an IPv4 address is found again
   * from its hash by trying them all, and an operator can check a suspect by hashing it alike.
   */
  static String hashed(String identity) {
    StringBuilder out = new StringBuilder(identity.length());
    for (String part : identity.split("&", -1)) {
      int eq = part.indexOf('=');
      if (out.length() > 0) {
        out.append('&');
      }
      if (eq < 0) {
        out.append(part); // "global": the same for every client
      } else {
        out.append(part, 0, eq + 1).append(ShortHash.of(part.substring(eq + 1)));
      }
    }
    return out.toString();
  }

  @Override
  public String toString() {
    return client
        + " "
        + denials
        + (maxOvercount > 0 ? " (at most " + maxOvercount + " fewer)" : "");
  }
}
