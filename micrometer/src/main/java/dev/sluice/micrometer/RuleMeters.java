package dev.sluice.micrometer;

import dev.sluice.metrics.LeaseStatus;
import dev.sluice.metrics.Metrics;
import dev.sluice.metrics.RuleStats;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.ToLongFunction;

/** The meters of each rule in force in one registry, added and removed as the rules change. */
final class RuleMeters {
  private static final String RULE = "rule";

  private final Metrics metrics;
  private final MeterRegistry registry;
  private final Map<String, List<Meter>> byRule = new HashMap<>();

  RuleMeters(Metrics metrics, MeterRegistry registry) {
    this.metrics = metrics;
    this.registry = registry;
  }

  /** Meters for the rules newly in force, none for those no longer. */
  synchronized void follow() {
    Set<String> inForce = new HashSet<>();
    for (RuleStats rule : metrics.rules()) {
      inForce.add(rule.ruleId());
      byRule.computeIfAbsent(rule.ruleId(), this::register);
    }
    for (String id : new HashSet<>(byRule.keySet())) {
      if (!inForce.contains(id)) {
        byRule.remove(id).forEach(registry::remove);
      }
    }
  }

  private List<Meter> register(String id) {
    List<Meter> meters = new ArrayList<>();
    String decisions = "sluice.decisions";
    String described =
        "Requests each rule decided, by outcome: allowed, denied (answered 429), shadow_denied (a"
            + " shadow rule would have denied; the request went through)";
    meters.add(counter(decisions, id, "outcome", "allowed", RuleStats::allowed, described));
    meters.add(counter(decisions, id, "outcome", "denied", RuleStats::denied, described));
    meters.add(
        counter(decisions, id, "outcome", "shadow_denied", RuleStats::shadowDenied, described));
    String local = "sluice.decisions.local";
    String why =
        "Decisions made in this JVM because Redis could not answer, by the rule's on_error:"
            + " fail_open (this JVM's share of the limit), fail_closed (denied)";
    meters.add(counter(local, id, "on_error", "fail_open", RuleStats::decidedLocally, why));
    meters.add(counter(local, id, "on_error", "fail_closed", RuleStats::deniedLocally, why));
    meters.add(
        FunctionTimer.builder(
                "sluice.rule.delay",
                metrics,
                m -> stat(m, id, RuleStats::delayed),
                m -> stat(m, id, RuleStats::delayMicros),
                TimeUnit.MICROSECONDS)
            .tag(RULE, id)
            .description("Requests a rule's delay held until their slot, and their waits")
            .register(registry));
    meters.add(
        Gauge.builder("sluice.rule.waiting", metrics, m -> stat(m, id, RuleStats::waiting))
            .tag(RULE, id)
            .description("Requests waiting for their slot now, in this JVM")
            .register(registry));
    meters.add(
        Gauge.builder("sluice.rule.shadow", metrics, m -> m.inShadow(id) ? 1 : 0)
            .tag(RULE, id)
            .description("1 while a rule runs in shadow (marked so, or on trial)")
            .register(registry));
    meters.add(
        Gauge.builder("sluice.rule.local.first", metrics, m -> localFirst(m, id) ? 1 : 0)
            .tag(RULE, id)
            .description("1 while a rule is decided local-first, from leases; 0 when exact")
            .register(registry));
    meters.add(
        Gauge.builder(
                "sluice.rule.lease.held", metrics, m -> lease(m, id, LeaseStatus::permitsHeld))
            .tag(RULE, id)
            .description("Permits this JVM holds in a local-first rule's leases, not spent yet")
            .register(registry));
    String leased =
        "Permits taken from Redis in leases, and what became of them: spent, given back, or"
            + " unspent when their lease died (under-admission); exact: decided otherwise";
    meters.add(leaseCounter(id, "leased", LeaseStatus::leased, leased));
    meters.add(leaseCounter(id, "spent", LeaseStatus::spent, leased));
    meters.add(leaseCounter(id, "given_back", LeaseStatus::givenBack, leased));
    meters.add(leaseCounter(id, "unspent", LeaseStatus::unspent, leased));
    meters.add(leaseCounter(id, "exact", LeaseStatus::exact, leased));
    return meters;
  }

  private Meter leaseCounter(
      String id, String outcome, ToLongFunction<LeaseStatus> count, String description) {
    return FunctionCounter.builder("sluice.rule.lease.permits", metrics, m -> lease(m, id, count))
        .tags(RULE, id, "outcome", outcome)
        .description(description)
        .register(registry);
  }

  private static boolean localFirst(Metrics metrics, String id) {
    return metrics.store().isShared() && metrics.localFirstSyncMicros(id) > 0;
  }

  /** A figure of the rule's leases, 0 without any (an exact rule's, or a memory store's). */
  private static long lease(Metrics metrics, String id, ToLongFunction<LeaseStatus> figure) {
    LeaseStatus lease = metrics.store().leases().get(id);
    return lease == null ? 0 : figure.applyAsLong(lease);
  }

  private Meter counter(
      String name,
      String id,
      String tag,
      String value,
      ToLongFunction<RuleStats> count,
      String description) {
    return FunctionCounter.builder(name, metrics, m -> stat(m, id, count))
        .tags(RULE, id, tag, value)
        .description(description)
        .register(registry);
  }

  /** A figure of the rule's, 0 once it is no longer in force. */
  private static long stat(Metrics metrics, String id, ToLongFunction<RuleStats> figure) {
    RuleStats rule = metrics.rule(id);
    return rule == null ? 0 : figure.applyAsLong(rule);
  }
}
