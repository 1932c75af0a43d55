package dev.sluice.it.store;

import dev.sluice.algo.Algorithm;
import dev.sluice.algo.Quota;
import dev.sluice.core.Key;
import dev.sluice.core.PathPattern;
import dev.sluice.core.Rule;
import dev.sluice.core.Rules;
import dev.sluice.store.Consistency;
import dev.sluice.store.OnError;
import java.net.URI;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What {@link FleetBounds} simulates: {@code instances} limiter instances (each its own {@code
 * RedisStore} and {@code Limiter}, as that many gateway JVMs would have) in {@code jvms} child
 * JVMs, the rules decided with {@code consistency} ({@code exact}, {@code local_first} with {@code
 * syncMillis}, or both: {@code exact,local_first}), and for each consistency and each algorithm of
 * {@code algorithms} four groups of traffic, each group's on a rule of its own:
 *
 * <ul>
 *   <li>a hot identity asking {@code hotDemand} × its limit ({@code hotLimit} per {@code
 *       hotWindowMillis}), round-robin over the instances; another, skewed;
 *   <li>{@code nearIdentities} identities each asking {@code nearDemand} × its limit ({@code
 *       nearLimit} per {@code nearWindowMillis}), evenly spaced, round-robin; as many more, skewed.
 * </ul>
 *
 * <p>Skewed traffic sends {@code skew} of the requests to instance 0 and spreads the rest evenly.
 * Faults: every master paused ({@code SIGSTOP}) at {@code pauseAtSeconds} for {@code pauseMillis},
 * and the master of the hot identities killed at {@code killAtSeconds} (negative: none). A fault's
 * phase lasts until {@code settleMillis} after Redis is back (resumed, or the replica promoted):
 * the breakers' probes and handovers settle meanwhile. {@code hotAddresses} are chosen by the
 * coordinator (both on one master, the one killed).
 */
record BoundsPlan(
    List<URI> seeds,
    String prefix,
    int instances,
    int jvms,
    int fleetSize,
    String algorithms,
    String consistency,
    int syncMillis,
    long hotLimit,
    long hotWindowMillis,
    double hotDemand,
    int nearIdentities,
    long nearLimit,
    long nearWindowMillis,
    double nearDemand,
    double skew,
    int seconds,
    int pauseAtSeconds,
    int pauseMillis,
    int killAtSeconds,
    int settleMillis,
    String hotAddresses,
    int threadsPerJvm,
    int timeoutMillis,
    int poolSize) {

  static BoundsPlan defaults() {
    return new BoundsPlan(
        List.of(),
        "bounds",
        4,
        4,
        4,
        "fixed_window,token_bucket",
        "exact",
        100,
        10,
        1_000,
        10,
        5_000,
        5,
        60_000,
        0.8,
        0.8,
        300,
        90,
        2_000,
        180,
        6_000,
        "auto",
        16,
        200,
        8);
  }

  static BoundsPlan parse(String... args) {
    return PlanOptions.parse(defaults(), args);
  }

  List<String> memberArgs() {
    return PlanOptions.memberArgs(this, seeds);
  }

  static BoundsPlan fromMemberArgs(String[] args) {
    return PlanOptions.fromMemberArgs(defaults(), args, 2);
  }

  /**
   * The algorithms of {@code algorithms}: fixed_window and token_bucket (a sliding window's
   * admissions are not attributed to its windows yet).
   */
  List<Algorithm> algorithmList() {
    List<Algorithm> list =
        Arrays.stream(algorithms.split(","))
            .map(a -> Algorithm.valueOf(a.trim().toUpperCase(Locale.ROOT)))
            .toList();
    if (list.contains(Algorithm.SLIDING_WINDOW)) {
      throw new IllegalArgumentException("algorithms: fixed_window and token_bucket only");
    }
    return list;
  }

  /**
   * The consistencies of {@code consistency}, a list of {@code exact} and {@code local_first} (at
   * {@code syncMillis}): each algorithm's rules and groups are there once for each, in one run.
   */
  List<Consistency> consistencies() {
    return Arrays.stream(consistency.split(","))
        .map(
            c -> {
              switch (c.trim()) {
                case "exact":
                  return Consistency.EXACT;
                case "local_first":
                  return Consistency.localFirst(syncMillis * 1000L);
                default:
                  throw new IllegalArgumentException(
                      "consistency is exact or local_first (or both), not " + c);
              }
            })
        .toList();
  }

  /**
   * The traffic groups, in a fixed order (their index is their number in the tallies): for each
   * consistency, algorithm and hot/near, a rule of its own ({@link Group#rule}, its index in {@link
   * #rules}), and its traffic round-robin, then skewed.
   */
  List<Group> groups() {
    List<Group> groups = new ArrayList<>();
    String[] hot = hotAddresses.split(",");
    int rule = 0;
    for (Consistency consistency : consistencies()) {
      for (Algorithm algorithm : algorithmList()) {
        for (boolean isHot : new boolean[] {true, false}) {
          for (boolean skewed : new boolean[] {false, true}) {
            List<String> addresses = new ArrayList<>();
            if (isHot) {
              addresses.add(hot[skewed ? 1 : 0]);
            } else {
              int first = skewed ? nearIdentities : 0;
              for (int i = first; i < first + nearIdentities; i++) {
                addresses.add(FleetSimulationMember.address(i));
              }
            }
            groups.add(
                new Group(groups.size(), rule, algorithm, consistency, isHot, skewed, addresses));
          }
          rule++;
        }
      }
    }
    return groups;
  }

  /** The groups' rules, in the order of {@link Group#rule}: keyed by ip, {@code fail_open}. */
  Rules rules() {
    List<Rule> rules = new ArrayList<>();
    for (Group group : groups()) {
      if (!group.skewed()) {
        rules.add(
            new Rule.Builder(
                    group.ruleId(),
                    List.of(PathPattern.compile(group.path())),
                    Key.parse(List.of("ip")),
                    quota(group.hot()))
                .algorithm(group.algorithm())
                .onError(OnError.FAIL_OPEN)
                .consistency(group.consistency())
                .build());
      }
    }
    return Rules.NONE.with(rules);
  }

  Quota quota(boolean hot) {
    long limit = hot ? hotLimit : nearLimit;
    return Quota.of(limit, 1000 * (hot ? hotWindowMillis : nearWindowMillis), limit);
  }

  /** This plan with {@code hotAddresses} in place of the option's value. */
  BoundsPlan withHotAddresses(String addresses, List<URI> seedsFound) {
    Map<String, String> values = PlanOptions.values(this);
    values.put("hot-addresses", addresses);
    return PlanOptions.fromValues(this, seedsFound, values);
  }

  /**
   * A stream of traffic: the requests of its identities, each identity asking {@code demand} × the
   * limit per window, evenly spaced, the identities' requests interleaved; {@code rule} is the
   * index of its rule in {@link #rules}.
   */
  record Group(
      int index,
      int rule,
      Algorithm algorithm,
      Consistency consistency,
      boolean hot,
      boolean skewed,
      List<String> addresses) {
    /** Its rule's id: hot or near, the algorithm, the consistency. */
    String ruleId() {
      return (hot ? "hot-" : "near-")
          + algorithm.name().toLowerCase(Locale.ROOT).replace('_', '-')
          + (consistency.isExact() ? "-exact" : "-local-first");
    }

    String name() {
      return ruleId() + (skewed ? " skewed" : " round-robin");
    }

    String path() {
      return "/" + ruleId() + "/**";
    }

    String requestPath() {
      return path().replace("**", "decide");
    }
  }
}
