package dev.sluice.bench.agent;

import java.util.Arrays;

/** One way of running the example app, all with the same heap flags on the same class path. */
enum Variant {
  NONE("none", "no agent", false, false),
  NO_MATCH("nomatch", "agent, no rule matches", true, false),
  MEMORY("memory", "agent, memory store", true, true),
  FILTER("filter", "Filter (web.xml), memory store", false, true),
  REDIS("redis", "agent, Redis store", true, true);

  final String id;
  final String label;
  final boolean agent;
  /** Whether /api/hello is under a rule, so its responses carry X-RateLimit-* headers. */
  final boolean limited;

  Variant(String id, String label, boolean agent, boolean limited) {
    this.id = id;
    this.label = label;
    this.agent = agent;
    this.limited = limited;
  }

  static Variant of(String id) {
    return Arrays.stream(values())
        .filter(v -> v.id.equals(id))
        .findFirst()
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    "unknown variant " + id + "; known: none,nomatch,memory,filter,redis"));
  }
}
