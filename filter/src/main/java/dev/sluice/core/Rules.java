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
    this.rules = Collections.unmodifiableList(rules);
    this.excludes = Collections.unmodifiableList(excludes);
    this.clientIp = clientIp;
    this.tiers = tiers;
    this.apiKeyHeader = apiKeyHeader;
    this.cors = cors;
    this.responses = responses;
    boolean byUser = false;
    for (Rule rule : rules) {
      byUser |= rule.key().readsUser();
    }
    this.keyedByUser = byUser;
  }

  public List<Rule> rules() {
    return rules;
  }

  /** These rules with {@code others} in their place, sharing everything else. */
  public Rules with(List<Rule> others) {
    return new Rules(others, excludes, clientIp, tiers, apiKeyHeader, cors, responses);
  }

  /** These rules finding clients by {@code other}, sharing everything else. */
  public Rules with(ClientIp other) {
    return new Rules(rules, excludes, other, tiers, apiKeyHeader, cors, responses);
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
