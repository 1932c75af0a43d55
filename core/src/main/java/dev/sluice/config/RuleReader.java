package dev.sluice.config;

import dev.sluice.algo.Algorithm;
import dev.sluice.algo.Quota;
import dev.sluice.core.Delay;
import dev.sluice.core.PathPattern;
import dev.sluice.core.Rule;
import dev.sluice.core.RuleResponse;
import dev.sluice.store.Consistency;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

/** Reads the rules of one file: each rule's own fields over the defaults, checked together. */
final class RuleReader {
  /** A rule's own fields around those it may also take from defaults ({@link RuleValues}). */
  private static final String[] FIELDS = fields();
  static final String ID = "[A-Za-z0-9_.-]{1,64}";

  private final Problems problems;
  private final RuleValues defaults;
  private final TierReader tiers;
  private final Consistency storeConsistency;
  private final Set<String> ids = new HashSet<>();

  /** @param storeConsistency the store-wide default, under the rule's and the defaults' */
  RuleReader(
      Problems problems, RuleValues defaults, TierReader tiers, Consistency storeConsistency) {
    this.problems = problems;
    this.defaults = defaults;
    this.tiers = tiers;
    this.storeConsistency = storeConsistency;
  }

  private static String[] fields() {
    List<String> fields = new ArrayList<>(Arrays.asList("id", "match"));
    fields.addAll(Arrays.asList(RuleValues.FIELDS));
    fields.addAll(Arrays.asList("response", "delay"));
    return fields.toArray(new String[0]);
  }

  /** Returns the rule, or null after reporting why it is not one. */
  Rule read(Node node, String path) {
    Fields f = new Fields(node, named(node, path), problems);
    if (!f.isMapping()) {
      return null; // reported; a rule that is not a mapping has no fields to complain about
    }
    String id = id(f);
    Set<String> methods = new LinkedHashSet<>();
    List<PathPattern> paths = match(f, methods);
    RuleValues v = RuleValues.read(f, problems).over(defaults);
    RuleResponse response = ResponseReader.rule(id, f.fields("response"), problems);
    Fields delayFields = f.fields("delay");
    f.finish(FIELDS);
    Delay delay = DelayReader.read(delayFields, f.pathOf("delay"), v, problems);
    Quota quota = quota(v, delay);
    Consistency consistency = ConsistencyReader.rule(v, storeConsistency, delay, problems);
    if (v.key == null && !v.given("key")) {
      missing(v, "key");
    }
    if (id == null || paths == null || quota == null || v.key == null) {
      return null;
    }
    Rule.Builder rule = new Rule.Builder(id, paths, v.key, quota).methods(methods);
    rule.algorithm(algorithm(v)).cost(cost(v, quota, null));
    if (v.onError != null) {
      rule.onError(v.onError);
    }
    rule.shadow(Boolean.TRUE.equals(v.shadow)).response(response).delay(delay);
    rule.consistency(consistency);
    if (v.tiers != null) {
      for (Map.Entry<String, Long> tier : v.tiers.entrySet()) {
        tiers.warnIfNeverGiven(
            tier.getKey(), v.tierFields.where(tier.getKey()), v.tierFields.pathOf(tier.getKey()));
        Quota tiered = quota(v, tier.getValue(), "tiers", delay);
        if (tiered != null && cost(v, tiered, tier.getKey()) > 0) {
          rule.tier(tier.getKey(), tiered);
        }
      }
    }
    return problems.isEmpty() ? rule.build() : null;
  }

  /**
   * {@code path} with the rule's id, as in {@code rules[2] (api-per-ip)}: people know their rules
   * by id, not by position. The bare path while the id is missing or invalid (reported by {@link
   * #id}).
   */
  private static String named(Node node, String path) {
    if (!(node instanceof MappingNode)) {
      return path;
    }
    for (NodeTuple field : ((MappingNode) node).getValue()) {
      Node key = field.getKeyNode();
      Node value = field.getValueNode();
      if (key instanceof ScalarNode
          && "id".equals(((ScalarNode) key).getValue())
          && value instanceof ScalarNode
          && ((ScalarNode) value).getValue().matches(ID)) {
        return path + " (" + ((ScalarNode) value).getValue() + ")";
      }
    }
    return path;
  }

  /** The path patterns of {@code match}, adding its methods to {@code methods}; null if none. */
  private List<PathPattern> match(Fields f, Set<String> methods) {
    Fields match = f.fields("match");
    if (match == null) {
      if (f.where("match") == f.node()) {
        problems.at(f.node(), f.pathOf("match"), "missing: every rule needs match: { path: ... }");
      }
      return null;
    }
    if (!match.isMapping()) {
      return null; // reported
    }
    List<PathPattern> paths = ConfigParser.patterns(match, "path", problems);
    if (paths == null) {
      problems.at(match.node(), match.pathOf("path"), "missing: give a path pattern or a list");
    } else if (paths.isEmpty() && isEmptyList(match.where("path"))) {
      problems.at(
          match.where("path"),
          match.pathOf("path"),
          "an empty list matches nothing; give at least one path pattern");
      paths = null;
    }
    methods.addAll(MethodReader.read(match, problems));
    match.finish("path", "methods");
    return paths;
  }

  static boolean isEmptyList(Node node) {
    return node instanceof SequenceNode && ((SequenceNode) node).getValue().isEmpty();
  }

  private String id(Fields f) {
    String id = f.string("id");
    if (id == null) {
      if (f.where("id") == f.node()) {
        problems.at(f.node(), f.pathOf("id"), "missing: every rule needs an id");
      }
    } else if (!id.matches(ID)) {
      problems.at(
          f.where("id"),
          f.pathOf("id"),
          "must be 1 to 64 of A-Z a-z 0-9 _ . -, got \"" + id + "\"");
    } else if (!ids.add(id)) {
      problems.at(f.where("id"), f.pathOf("id"), "\"" + id + "\" is the id of an earlier rule");
    }
    return id;
  }

  private static Algorithm algorithm(RuleValues v) {
    return v.algorithm == null ? Algorithm.SLIDING_WINDOW : v.algorithm;
  }

  private Quota quota(RuleValues v, Delay delay) {
    if (v.limit == null && !v.given("limit")) {
      missing(v, "limit");
    }
    if (v.windowMicros == null && !v.given("window")) {
      missing(v, "window");
    }
    boolean bucket = algorithm(v) == Algorithm.TOKEN_BUCKET;
    if (v.burst != null && !bucket && isOwn(v, "burst")) {
      problems.at(v.where("burst"), v.pathOf("burst"), "applies to algorithm token_bucket only");
    }
    return v.limit == null || v.windowMicros == null ? null : quota(v, v.limit, "limit", delay);
  }

  /**
   * The quota of {@code limit} per window. The bucket is the limit itself, unless the rule gives a
   * burst: then a tier's bucket scales with the tier's limit, so a bigger plan gets a bigger bucket
   * in the same proportion (burst 5 on limit 5 gives a tier of 50 a bucket of 50). With a {@code
   * delay}, the bucket is the delay's queue at the quota's own rate.
   */
  private Quota quota(RuleValues v, long limit, String field, Delay delay) {
    boolean bucket = algorithm(v) == Algorithm.TOKEN_BUCKET;
    long burst = limit;
    if (bucket && v.burst != null && v.limit != null) {
      burst = Math.max(1, (long) Math.ceil((double) v.burst * limit / v.limit));
    }
    try {
      Quota quota = Quota.of(limit, v.windowMicros, burst);
      long cost = v.cost == null ? 1 : v.cost;
      return delay == null ? quota : quota.delayed(delay.immediate(), cost, delay.maxWaitMicros());
    } catch (IllegalArgumentException e) {
      problems.at(v.where(field), v.pathOf(field), e.getMessage());
      return null;
    }
  }

  /**
   * The cost, after checking one request can ever fit in {@code quota} (of {@code tier}, or of
   * requests without one when null); 0 if it cannot.
   */
  private long cost(RuleValues v, Quota quota, String tier) {
    long cost = v.cost == null ? 1 : v.cost;
    boolean bucket = algorithm(v) == Algorithm.TOKEN_BUCKET;
    long room = bucket ? quota.burst() : quota.limit();
    if (cost > room) {
      problems.at(
          v.where("cost"),
          v.pathOf("cost"),
          "a request costing "
              + cost
              + " could never pass "
              + (tier == null ? "" : "tier " + tier + "'s ")
              + (bucket ? "burst" : "limit")
              + " of "
              + room
              + "; lower the cost or raise the "
              + (bucket ? "burst" : "limit"));
      return 0;
    }
    return cost;
  }

  private boolean isOwn(RuleValues v, String field) {
    return !v.pathOf(field).startsWith("defaults.");
  }

  private void missing(RuleValues v, String field) {
    problems.at(v.where(field), v.pathOf(field), "missing: give it in the rule or in defaults");
  }
}
