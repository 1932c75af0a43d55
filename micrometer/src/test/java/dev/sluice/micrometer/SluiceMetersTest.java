package dev.sluice.micrometer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.metrics.LeaseStatus;
import dev.sluice.metrics.Metrics;
import dev.sluice.metrics.RoundTrips;
import dev.sluice.metrics.RuleCounters;
import dev.sluice.metrics.StoreStatus;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The binder without Spring: a plain MeterBinder over a limiter's metrics. */
class SluiceMetersTest {
  private final Metrics metrics = new Metrics(() -> 1_800_000_000_000_000L);
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

  private double count(String name, String rule, String tag, String value) {
    return registry.get(name).tags("rule", rule, tag, value).functionCounter().count();
  }

  @Test
  void eachRuleInForceHasItsCountersAndOnlyWhileInForce() {
    RuleCounters[] bound = metrics.bindRules(List.of("login", "api"));
    new SluiceMeters(metrics).bindTo(registry);
    bound[0].countAllowed();
    bound[1].countDenied("ip=1");
    bound[1].countShadowDenied("ip=2");
    bound[1].countDecidedLocally();
    bound[1].countDeniedLocally();
    assertThat(count("sluice.decisions", "login", "outcome", "allowed")).isEqualTo(1);
    assertThat(count("sluice.decisions", "api", "outcome", "denied")).isEqualTo(1);
    assertThat(count("sluice.decisions", "api", "outcome", "shadow_denied")).isEqualTo(1);
    assertThat(count("sluice.decisions.local", "api", "on_error", "fail_open")).isEqualTo(1);
    assertThat(count("sluice.decisions.local", "api", "on_error", "fail_closed")).isEqualTo(1);

    metrics.bindRules(List.of("api", "new"));
    assertThat(registry.find("sluice.decisions").tag("rule", "login").meters())
        .as("a rule no longer in force")
        .isEmpty();
    assertThat(count("sluice.decisions", "new", "outcome", "allowed")).isZero();
    assertThat(count("sluice.decisions", "api", "outcome", "denied")).as("kept").isEqualTo(1);
  }

  @Test
  void aLocalFirstRuleShowsItsLeases() {
    metrics.bindRules(List.of("api", "login"));
    metrics.localFirst(Map.of("api", 100_000L));
    metrics.bindStore(
        () ->
            StoreStatus.redis(new RoundTrips(() -> 0L), Map.of(), 2)
                .withLeases(Map.of("api", new LeaseStatus(2, 17, 0, 90, 70, 2, 1, 5))));
    new SluiceMeters(metrics).bindTo(registry);
    assertThat(registry.get("sluice.rule.local.first").tag("rule", "api").gauge().value())
        .isEqualTo(1);
    assertThat(registry.get("sluice.rule.local.first").tag("rule", "login").gauge().value())
        .isZero();
    assertThat(registry.get("sluice.rule.lease.held").tag("rule", "api").gauge().value())
        .isEqualTo(17);
    assertThat(count("sluice.rule.lease.permits", "api", "outcome", "leased")).isEqualTo(90);
    assertThat(count("sluice.rule.lease.permits", "api", "outcome", "spent")).isEqualTo(70);
    assertThat(count("sluice.rule.lease.permits", "api", "outcome", "given_back")).isEqualTo(2);
    assertThat(count("sluice.rule.lease.permits", "api", "outcome", "exact")).isEqualTo(5);
    assertThat(count("sluice.rule.lease.permits", "api", "outcome", "unspent")).isEqualTo(1);
    assertThat(count("sluice.rule.lease.permits", "login", "outcome", "leased")).isZero();
  }

  @Test
  void aDelayedRuleShowsItsWaitsAndTheRequestsWaitingNow() {
    RuleCounters[] bound = metrics.bindRules(List.of("pay"));
    new SluiceMeters(metrics).bindTo(registry);
    bound[0].countWaiting();
    bound[0].countWaiting();
    bound[0].countWaiting();
    bound[0].countDelayed(200_000);
    bound[0].countLeftWaiting();
    FunctionTimer delay = registry.get("sluice.rule.delay").tag("rule", "pay").functionTimer();
    assertThat(delay.count()).as("requests that waited").isEqualTo(1);
    assertThat(delay.totalTime(TimeUnit.MILLISECONDS)).isEqualTo(200);
    assertThat(registry.get("sluice.rule.waiting").tag("rule", "pay").gauge().value())
        .as("one request still waiting")
        .isEqualTo(1);
  }

  @Test
  void aMemoryStoreHasNoRoundTrips() {
    new SluiceMeters(metrics).bindTo(registry);
    assertThat(registry.get("sluice.redis.round.trips").functionTimer().count()).isZero();
    assertThat(registry.get("sluice.redis.breakers.open").gauge().value()).isZero();
  }
}
