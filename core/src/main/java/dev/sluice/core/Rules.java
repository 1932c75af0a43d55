package dev.sluice.core;

import java.util.Collections;
import java.util.List;

/** Everything the limiter applies at one time: the rules and what they share. Immutable. */
public final class Rules {
  public static final String DEFAULT_API_KEY_HEADER = "X-API-Key";
  public static final Rules NONE =
      new Rules(
          Collections.<Rule>emptyList(),
          Collections.<PathPattern>emptyList(),
          new ClientIp(Collections.<Cidr>emptyList()),
          Tiers.NONE,
          DEFAULT_API_KEY_HEADER,
          Cors.NONE);

  private final List<Rule> rules;
  private final List<PathPattern> excludes;
  private final ClientIp clientIp;
  private final Tiers tiers;
  private final String apiKeyHeader;
  private final Cors cors;
  private final Responses responses;
  private final boolean keyedByUser;
  private final boolean delays;
  private final int maxWaiting;

  /**
   * Requests of all rules that may wait for their slot at once in one JVM, unless the file says: a
   * quarter of the smallest pool of server threads in common use (Undertow's 16 workers on two
   * cores), since a request that waits on its own thread holds one of them.
   */
  public static final int DEFAULT_MAX_WAITING = 4;

  /** Rules answering with the default {@link Responses}. */
  public Rules(
      List<Rule> rules,
      List<PathPattern> excludes,
      ClientIp clientIp,
      Tiers tiers,
      String apiKeyHeader,
      Cors cors) {
    this(rules, excludes, clientIp, tiers, apiKeyHeader, cors, Responses.DEFAULT);
  }

  public Rules(
      List<Rule> rules,
      List<PathPattern> excludes,
      ClientIp clientIp,
      Tiers tiers,
      String apiKeyHeader,
      Cors cors,
      Responses responses) {
    this(rules, excludes, clientIp, tiers, apiKeyHeader, cors, responses, DEFAULT_MAX_WAITING);
  }

  private Rules(
      List<Rule> rules,
      List<PathPattern> excludes,
      ClientIp clientIp,
      Tiers tiers,
      String apiKeyHeader,
      Cors cors,
      Responses responses,
      int maxWaiting) {
    this.maxWaiting = maxWaiting;
    this.rules = Collections.unmodifiableList(rules);
    this.excludes = Collections.unmodifiableList(excludes);
    this.clientIp = clientIp;
    this.tiers = tiers;
    this.apiKeyHeader = apiKeyHeader;
    this.cors = cors;
    this.responses = responses;
    boolean byUser = false;
    boolean delayed = false;
    for (Rule rule : rules) {
      byUser |= rule.key().readsUser();
      delayed |= rule.delay() != null;
    }
    this.keyedByUser = byUser;
    this.delays = delayed;
  }

  public List<Rule> rules() {
    return rules;
  }

  /** These rules with {@code others} in their place, sharing everything else. */
  public Rules with(List<Rule> others) {
    return new Rules(others, excludes, clientIp, tiers, apiKeyHeader, cors, responses, maxWaiting);
  }

  /** These rules finding clients by {@code other}, sharing everything else. */
  public Rules with(ClientIp other) {
    return new Rules(rules, excludes, other, tiers, apiKeyHeader, cors, responses, maxWaiting);
  }

  /** These rules letting {@code total} requests wait at once, sharing everything else. */
  public Rules withMaxWaiting(int total) {
    return new Rules(rules, excludes, clientIp, tiers, apiKeyHeader, cors, responses, total);
  }

  /**
   * Requests of all rules with a {@link Delay} that may wait for their slot at once in one JVM,
   * with those of every other copy of Sluice in it (the agent's, other applications' Filters);
   * beyond them, a request that would wait is denied at once.
   */
  public int maxWaiting() {
    return maxWaiting;
  }

  /** Whether a rule may hold a request for its slot: only then may a decision have a wait. */
  public boolean delays() {
    return delays;
  }

  /** Whether a rule's key reads the user: only then is there anything to decide after login. */
  public boolean keyedByUser() {
    return keyedByUser;
  }

  public List<PathPattern> excludes() {
    return excludes;
  }

  public ClientIp clientIp() {
    return clientIp;
  }

  public Tiers tiers() {
    return tiers;
  }

  public String apiKeyHeader() {
    return apiKeyHeader;
  }

  public Cors cors() {
    return cors;
  }

  public Responses responses() {
    return responses;
  }

  boolean isExcluded(String[] segments) {
    for (PathPattern exclude : excludes) {
      if (exclude.matches(segments)) {
        return true;
      }
    }
    return false;
  }
}
