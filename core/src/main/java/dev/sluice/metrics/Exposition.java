package dev.sluice.metrics;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

/** {@link Metrics} as Prometheus text: the names docs/operations.md documents, kept stable. */
final class Exposition {
  /** The round-trip histogram's buckets as exported: Prometheus's usual ones, 50 µs to 10 s. */
  static final long[] LE_NANOS = {
    50_000,
    100_000,
    250_000,
    500_000,
    1_000_000,
    2_500_000,
    5_000_000,
    10_000_000,
    25_000_000,
    50_000_000,
    100_000_000,
    250_000_000,
    500_000_000,
    1_000_000_000,
    2_500_000_000L,
    5_000_000_000L,
    10_000_000_000L
  };

  private static final String RULE = "rule";

  private Exposition() {}

  static String render(Metrics metrics) {
    PrometheusText out = new PrometheusText();
    List<RuleStats> rules = metrics.rules();
    StoreStatus store = metrics.store();
    rules(out, metrics, rules);
    leases(out, metrics, rules, store);
    trials(out, metrics.trials());
    store(out, store);
    config(out, metrics.config());
    return out.text();
  }

  private static void rules(PrometheusText out, Metrics metrics, List<RuleStats> rules) {
    String decisions = "sluice_rule_decisions_total";
    out.family(
        decisions,
        "counter",
        "Requests each rule decided, by outcome: allowed, denied (answered 429), shadow_denied"
            + " (a shadow rule would have denied; the request went through).");
    for (RuleStats r : rules) {
      out.sample(decisions, r.allowed(), RULE, r.ruleId(), "outcome", "allowed");
      out.sample(decisions, r.denied(), RULE, r.ruleId(), "outcome", "denied");
      out.sample(decisions, r.shadowDenied(), RULE, r.ruleId(), "outcome", "shadow_denied");
    }
    String shadow = "sluice_rule_shadow";
    out.family(
        shadow,
        "gauge",
        "1 while a rule runs in shadow (marked so, or on trial): it counts and never denies.");
    for (RuleStats r : rules) {
      out.sample(shadow, metrics.inShadow(r.ruleId()) ? 1 : 0, RULE, r.ruleId());
    }
    String local = "sluice_rule_local_decisions_total";
    out.family(
        local,
        "counter",
        "Decisions made in this JVM because Redis could not answer, by the rule's on_error:"
            + " fail_open (this JVM's share of the limit), fail_closed (denied).");
    for (RuleStats r : rules) {
      out.sample(local, r.decidedLocally(), RULE, r.ruleId(), "on_error", "fail_open");
      out.sample(local, r.deniedLocally(), RULE, r.ruleId(), "on_error", "fail_closed");
    }
    String delayed = "sluice_rule_delayed_total";
    out.family(
        delayed,
        "counter",
        "Requests a rule's delay held until their slot (counted as allowed too); a request that"
            + " found no place to wait is counted as denied.");
    for (RuleStats r : rules) {
      out.sample(delayed, r.delayed(), RULE, r.ruleId());
    }
    String waited = "sluice_rule_delay_seconds_total";
    out.family(waited, "counter", "The time the delayed requests of a rule waited, together.");
    for (RuleStats r : rules) {
      out.sample(waited, r.delayMicros() / 1e6, RULE, r.ruleId());
    }
    String waiting = "sluice_rule_waiting";
    out.family(waiting, "gauge", "Requests waiting for their slot now, by a rule's delay.");
    for (RuleStats r : rules) {
      out.sample(waiting, r.waiting(), RULE, r.ruleId());
    }
    String top = "sluice_rule_top_limited_denials";
    out.family(
        top,
        "gauge",
        "Denials of the clients each rule denied most in the last one to two minutes (a bounded"
            + " estimate, high by at most the displaced counts); clients hashed unless"
            + " metrics.raw_identities.");
    for (RuleStats r : rules) {
      for (LimitedClient client : r.topLimited()) {
        out.sample(top, client.getDenials(), RULE, r.ruleId(), "client", client.getClient());
      }
    }
  }

  /** Each rule's consistency; for a local-first rule in a shared store, its leases here. */
  private static void leases(
      PrometheusText out, Metrics metrics, List<RuleStats> rules, StoreStatus store) {
    String localFirst = "sluice_rule_local_first";
    out.family(
        localFirst,
        "gauge",
        "1 while a rule is decided local-first, from leases of permits taken from Redis ahead of"
            + " need; 0 when exact (every decision Redis's).");
    for (RuleStats r : rules) {
      boolean leased = store.isShared() && metrics.localFirstSyncMicros(r.ruleId()) > 0;
      out.sample(localFirst, leased ? 1 : 0, RULE, r.ruleId());
    }
    if (store.leases().isEmpty()) {
      return;
    }
    String held = "sluice_rule_lease_permits_held";
    out.family(held, "gauge", "Permits this JVM holds in leases, not spent yet: its allowance.");
    for (Map.Entry<String, LeaseStatus> rule : store.leases().entrySet()) {
      out.sample(held, rule.getValue().permitsHeld(), RULE, rule.getKey());
    }
    String sync = "sluice_rule_lease_last_sync_timestamp_seconds";
    out.family(sync, "gauge", "When Redis last answered for a lease of the rule; 0 never.");
    for (Map.Entry<String, LeaseStatus> rule : store.leases().entrySet()) {
      out.sample(sync, rule.getValue().lastSyncMillis() / 1e3, RULE, rule.getKey());
    }
    String permits = "sluice_rule_lease_permits_total";
    out.family(
        permits,
        "counter",
        "Permits taken from Redis in leases (leased), and what became of them: spent on requests,"
            + " given back unused, or unspent when their lease died (the rule's under-admission"
            + " here); exact: the rule's permits decided otherwise (a cold or slow identity's,"
            + " taken the exact way).");
    for (Map.Entry<String, LeaseStatus> rule : store.leases().entrySet()) {
      LeaseStatus l = rule.getValue();
      out.sample(permits, l.leased(), RULE, rule.getKey(), "outcome", "leased");
      out.sample(permits, l.spent(), RULE, rule.getKey(), "outcome", "spent");
      out.sample(permits, l.givenBack(), RULE, rule.getKey(), "outcome", "given_back");
      out.sample(permits, l.unspent(), RULE, rule.getKey(), "outcome", "unspent");
      out.sample(permits, l.exact(), RULE, rule.getKey(), "outcome", "exact");
    }
  }

  private static void trials(PrometheusText out, Map<String, Long> enforcesAtMillis) {
    if (enforcesAtMillis.isEmpty()) {
      return;
    }
    String name = "sluice_rule_enforces_at_timestamp_seconds";
    out.family(
        name,
        "gauge",
        "When a rule on trial (rollout.shadow_for) starts to enforce; it runs in shadow until"
            + " then.");
    for (Map.Entry<String, Long> trial : enforcesAtMillis.entrySet()) {
      out.sample(name, trial.getValue() / 1e3, RULE, trial.getKey());
    }
  }

  private static void store(PrometheusText out, StoreStatus store) {
    out.family("sluice_store_info", "gauge", "The store the counts live in: memory or redis.")
        .sample("sluice_store_info", 1, "type", store.type());
    if (!store.isShared()) {
      return;
    }
    String seconds = "sluice_redis_round_trip_seconds";
    Histogram all = store.allRoundTrips();
    out.family(
        seconds, "histogram", "Redis round trips (one pipeline each), since the store started.");
    for (long le : LE_NANOS) {
      out.sample(seconds + "_bucket", all.countAtMost(le), "le", seconds(le));
    }
    out.sample(seconds + "_bucket", all.count(), "le", "+Inf")
        .sample(seconds + "_sum", all.sumSeconds())
        .sample(seconds + "_count", all.count());
    String recent = "sluice_redis_round_trip_recent_seconds";
    out.family(recent, "gauge", "Quantiles of the Redis round trips of the last minute.")
        .sample(recent, store.recentRoundTrips().quantileSeconds(0.5), "quantile", "0.5")
        .sample(recent, store.recentRoundTrips().quantileSeconds(0.99), "quantile", "0.99");
    out.family(
            "sluice_redis_pipeline_commands_total",
            "counter",
            "Commands sent to Redis; divided by the round trips, the mean pipeline size.")
        .sample("sluice_redis_pipeline_commands_total", store.commands());
    out.family(
            "sluice_redis_errors_total",
            "counter",
            "Redis round trips a server did not answer, and failed connects.")
        .sample("sluice_redis_errors_total", store.errors());
    String open = "sluice_redis_breaker_open";
    out.family(
        open,
        "gauge",
        "1 while a shard's breaker is open (or probing): its keys are decided in this JVM.");
    for (Map.Entry<String, String> breaker : store.breakers().entrySet()) {
      out.sample(
          open, breaker.getValue().equals(StoreStatus.CLOSED) ? 0 : 1, "shard", breaker.getKey());
    }
    out.family("sluice_redis_fleet_size", "gauge", "The JVMs this one believes share the limits.")
        .sample("sluice_redis_fleet_size", store.fleetSize());
  }

  private static void config(PrometheusText out, ConfigStatus config) {
    if (config.version() != null) {
      out.family("sluice_config_info", "gauge", "The ratelimit.yaml in force, by content hash.")
          .sample("sluice_config_info", 1, "version", config.version())
          .family(
              "sluice_config_applied_timestamp_seconds",
              "gauge",
              "When the ratelimit.yaml in force was applied.")
          .sample("sluice_config_applied_timestamp_seconds", config.appliedAtMillis() / 1e3);
    }
    out.family("sluice_config_rules", "gauge", "Rules in force (none while enabled: false).")
        .sample("sluice_config_rules", config.rules());
    if (config.lastReload() != null) {
      out.family(
              "sluice_config_last_reload_timestamp_seconds",
              "gauge",
              "When ratelimit.yaml was last read (about every second).")
          .sample("sluice_config_last_reload_timestamp_seconds", config.lastReloadAtMillis() / 1e3)
          .family(
              "sluice_config_last_reload_successful",
              "gauge",
              "0 while ratelimit.yaml is invalid, unreadable or missing: the last good rules stay.")
          .sample(
              "sluice_config_last_reload_successful",
              config.lastReload() == ConfigStatus.Reload.REJECTED ? 0 : 1);
    }
  }

  /** {@code nanos} as seconds in plain decimal: {@code 0.00025}, {@code 10}. */
  private static String seconds(long nanos) {
    return BigDecimal.valueOf(nanos, 9).stripTrailingZeros().toPlainString();
  }
}
