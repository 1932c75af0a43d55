package dev.sluice.config;

import dev.sluice.algo.Algorithm;
import dev.sluice.core.Key;
import dev.sluice.store.OnError;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.nodes.Node;

/**
 * The fields a rule may also take from {@code defaults}, each null when not given, read from one
 * mapping. {@link #over} layers a rule's own values over the defaults and remembers where each
 * value came from, so a problem found after merging still points at the right line.
 */
final class RuleValues {
  static final String[] FIELDS = {
    "key",
    "limit",
    "window",
    "algorithm",
    "burst",
    "cost",
    "on_error",
    "shadow",
    "tiers",
    "consistency",
    "sync"
  };

  Key key;
  Long limit;
  Long windowMicros;
  Algorithm algorithm;
  Long burst;
  Long cost;
  OnError onError;
  Boolean shadow;
  Map<String, Long> tiers;
  ConsistencyReader.Choice consistency;
  Long syncMicros;

  /** Where {@link #tiers} were given: in the rule, or in the defaults. */
  Fields tierFields;

  private Fields source;
  private RuleValues fallback;

  static RuleValues read(Fields f, Problems problems) {
    RuleValues v = new RuleValues();
    v.source = f;
    List<String> keyParts = f.strings("key");
    if (keyParts != null) {
      try {
        v.key = Key.parse(keyParts);
      } catch (IllegalArgumentException e) {
        problems.at(f.where("key"), f.pathOf("key"), e.getMessage());
      }
    }
    v.limit = f.positive("limit");
    v.windowMicros = f.duration("window");
    v.algorithm = f.choice("algorithm", Algorithm.class);
    v.burst = f.positive("burst");
    v.cost = f.positive("cost");
    v.onError = f.choice("on_error", OnError.class);
    v.shadow = f.bool("shadow");
    v.consistency = f.choice("consistency", ConsistencyReader.Choice.class);
    v.syncMicros = ConsistencyReader.syncOf(f, problems);
    v.tierFields = f.fields("tiers");
    if (v.tierFields != null) {
      v.tiers = tierLimits(v.tierFields);
    }
    return v;
  }

  /** A rule's tiers are easily mistaken for the top-level ones, which say who has which tier. */
  private static final String TIERS_HINT =
      "; a rule's tiers give each tier its limit (tiers: { pro: 10000 }), while which API key has"
          + " which tier goes in the top-level tiers.api_keys (or tiers.header)";

  private static Map<String, Long> tierLimits(Fields f) {
    Map<String, Long> limits = new LinkedHashMap<>();
    for (String tier : f.names()) {
      Long limit = f.positive(tier, TIERS_HINT);
      if (limit != null) {
        limits.put(tier, limit);
      }
    }
    return limits;
  }

  /** This mapping's values where given, else those of {@code defaults}. */
  RuleValues over(RuleValues defaults) {
    RuleValues v = new RuleValues();
    v.source = source;
    v.fallback = defaults;
    v.key = key != null ? key : defaults.key;
    v.limit = limit != null ? limit : defaults.limit;
    v.windowMicros = windowMicros != null ? windowMicros : defaults.windowMicros;
    v.algorithm = algorithm != null ? algorithm : defaults.algorithm;
    v.burst = burst != null ? burst : defaults.burst;
    v.cost = cost != null ? cost : defaults.cost;
    v.onError = onError != null ? onError : defaults.onError;
    v.shadow = shadow != null ? shadow : defaults.shadow;
    v.tiers = tiers != null ? tiers : defaults.tiers;
    v.consistency = consistency != null ? consistency : defaults.consistency;
    v.syncMicros = syncMicros != null ? syncMicros : defaults.syncMicros;
    v.tierFields = tiers != null ? tierFields : defaults.tierFields;
    return v;
  }

  /** True when the rule or the defaults give {@code field}, even if its value was rejected. */
  boolean given(String field) {
    return source.where(field) != source.node()
        || (fallback != null
            && fallback.source != null
            && fallback.source.where(field) != fallback.source.node());
  }

  /** Where a merged field was given: in the rule, else in the defaults, else the rule itself. */
  Node where(String field) {
    Node own = source.where(field);
    if (own != source.node() || fallback == null || fallback.source == null) {
      return own;
    }
    Node inherited = fallback.source.where(field);
    return inherited != fallback.source.node() ? inherited : own;
  }

  /** The path of a merged field, as {@link #where} locates it. */
  String pathOf(String field) {
    boolean inherited =
        fallback != null
            && fallback.source != null
            && source.where(field) == source.node()
            && fallback.source.where(field) != fallback.source.node();
    return inherited ? fallback.source.pathOf(field) : source.pathOf(field);
  }
}
