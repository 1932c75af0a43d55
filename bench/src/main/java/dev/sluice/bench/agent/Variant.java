package dev.sluice.bench.agent;

import java.util.Arrays;
import java.util.stream.Collectors;

/** One way of running the example app, all with the same heap flags on the same class path. */
enum Variant {
  NONE("none", "no agent", false, false, false),
  NO_MATCH("nomatch", "agent, no rule matches", true, false, false),
  MEMORY("memory", "agent, memory store", true, true, false),
  FILTER("filter", "Filter (web.xml), memory store", false, true, false),
  REDIS("redis", "agent, Redis store", true, true, true),
  REDIS_LOCAL_FIRST("redislf", "agent, Redis store, local-first", true, true, true);

  final String id;
  final String label;
  final boolean agent;
  /** Whether /api/hello is under a rule, so its responses carry X-RateLimit-* headers. */
  final boolean limited;
  /** Whether its rule counts in the driver's redis-server. */
  final boolean redis;

  Variant(String id, String label, boolean agent, boolean limited, boolean redis) {
    this.id = id;
    this.label = label;
    this.agent = agent;
    this.limited = limited;
    this.redis = redis;
  }

  static Variant of(String id) {
    return Arrays.stream(values())
        .filter(v -> v.id.equals(id))
        .findFirst()
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    "unknown variant "
                        + id
                        + "; known: "
                        + Arrays.stream(values()).map(v -> v.id).collect(Collectors.joining(","))));
  }
}
