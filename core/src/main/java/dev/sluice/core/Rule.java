package dev.sluice.core;

import dev.sluice.algo.Algorithm;
import dev.sluice.algo.Quota;
import dev.sluice.store.Consistency;
import dev.sluice.store.OnError;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** One rule of ratelimit.yaml, validated and immutable. Built by {@code dev.sluice.config}. */
public final class Rule {
  private final String id;
  private final List<PathPattern> paths;
  private final Set<String> methods;
  private final Key key;
  private final Algorithm algorithm;
  private final Quota quota;
  private final Map<String, Quota> tierQuotas;
  private final long cost;
  private final boolean shadow;
  private final OnError onError;
  private final RuleResponse response;
  private final Delay delay;
  private final Consistency consistency;

  private Rule(Rule rule, boolean shadow) {
    this.id = rule.id;
    this.paths = rule.paths;
    this.methods = rule.methods;
    this.key = rule.key;
    this.algorithm = rule.algorithm;
    this.quota = rule.quota;
    this.tierQuotas = rule.tierQuotas;
    this.cost = rule.cost;
    this.shadow = shadow;
    this.onError = rule.onError;
    this.response = rule.response;
    this.delay = rule.delay;
    this.consistency = rule.consistency;
  }

  /** This rule in shadow: it counts on its own and never denies. */
  public Rule inShadow() {
    return shadow ? this : new Rule(this, true);
  }

  private Rule(Builder b) {
    this.id = b.id;
    this.paths = Collections.unmodifiableList(b.paths);
    this.methods = b.methods.isEmpty() ? null : Collections.unmodifiableSet(b.methods);
    this.key = b.key;
    this.algorithm = b.algorithm;
    this.quota = b.quota;
    this.tierQuotas = Collections.unmodifiableMap(b.tierQuotas);
    this.cost = b.cost;
    this.shadow = b.shadow;
    this.onError = b.onError;
    this.response = b.response == null ? RuleResponse.standard(b.id) : b.response;
    this.delay = b.delay;
    this.consistency = b.consistency;
  }

  boolean matches(String method, String[] segments) {
    if (methods != null && !methods.contains(method)) {
      return false;
    }
    for (int i = 0; i < paths.size(); i++) { // by index: an iterator per request is garbage
      if (paths.get(i).matches(segments)) {
        return true;
      }
    }
    return false;
  }

  Quota quotaFor(Subject subject) {
    String tier = tierFor(subject);
    return tier == null ? quota : tierQuotas.get(tier);
  }

  /** The request's tier if this rule has a quota of its own for it, else null. */
  String tierFor(Subject subject) {
    if (tierQuotas.isEmpty()) {
      return null;
    }
    String tier = subject.tier();
    return tier != null && tierQuotas.containsKey(tier) ? tier : null;
  }

  public String id() {
    return id;
  }

  public List<PathPattern> paths() {
    return paths;
  }

  /** Upper-case method names; none means every method. */
  public Set<String> methods() {
    return methods == null ? Collections.<String>emptySet() : methods;
  }

  public Key key() {
    return key;
  }

  public Algorithm algorithm() {
    return algorithm;
  }

  /** The quota of requests without a tier, or of a tier this rule does not name. */
  public Quota quota() {
    return quota;
  }

  public Map<String, Quota> tierQuotas() {
    return tierQuotas;
  }

  public long cost() {
    return cost;
  }

  public boolean shadow() {
    return shadow;
  }

  public OnError onError() {
    return onError;
  }

  /** How the rule answers a request it denies. */
  public RuleResponse response() {
    return response;
  }

  /** How requests over the rate wait for their slot; null when they are denied at once. */
  public Delay delay() {
    return delay;
  }

  /** How a shared store decides this rule's permits: exactly (the default) or local-first. */
  public Consistency consistency() {
    return consistency;
  }

  @Override
  public String toString() {
    return id
        + " "
        + paths
        + (methods == null ? "" : " " + methods)
        + " by "
        + key
        + ": "
        + algorithm
        + " "
        + quota
        + (delay == null ? "" : " " + delay)
        + (consistency.isExact() ? "" : " " + consistency)
        + (shadow ? " (shadow)" : "");
  }

  /** Collects a rule's parts; {@link #build()} expects them already validated. */
  public static final class Builder {
    private final String id;
    private final List<PathPattern> paths;
    private final Set<String> methods = new LinkedHashSet<>();
    private final Map<String, Quota> tierQuotas = new HashMap<>();
    private Key key;
    private Algorithm algorithm = Algorithm.SLIDING_WINDOW;
    private Quota quota;
    private long cost = 1;
    private boolean shadow;
    private OnError onError = OnError.FAIL_OPEN;
    private RuleResponse response;
    private Delay delay;
    private Consistency consistency = Consistency.EXACT;

    public Builder(String id, List<PathPattern> paths, Key key, Quota quota) {
      this.id = id;
      this.paths = paths;
      this.key = key;
      this.quota = quota;
    }

    /** Upper-case method names; none means every method. */
    public Builder methods(Set<String> methods) {
      this.methods.addAll(methods);
      return this;
    }

    public Builder algorithm(Algorithm algorithm) {
      this.algorithm = algorithm;
      return this;
    }

    public Builder tier(String tier, Quota quota) {
      tierQuotas.put(tier, quota);
      return this;
    }

    public Builder cost(long cost) {
      this.cost = cost;
      return this;
    }

    public Builder shadow(boolean shadow) {
      this.shadow = shadow;
      return this;
    }

    public Builder onError(OnError onError) {
      this.onError = onError;
      return this;
    }

    public Builder response(RuleResponse response) {
      this.response = response;
      return this;
    }

    /** Its quotas must be {@link Quota#delayed} by the same delay. */
    public Builder delay(Delay delay) {
      this.delay = delay;
      return this;
    }

    public Builder consistency(Consistency consistency) {
      this.consistency = consistency;
      return this;
    }

    public Rule build() {
      return new Rule(this);
    }
  }
}
