package dev.sluice.it.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.algo.Algorithm;
import dev.sluice.it.store.BoundsPlan.Group;
import dev.sluice.it.store.BoundsReport.Span;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@link FleetBounds} shortened to fit CI: 4 limiter instances in 4 child JVMs (fleet size 4)
 * against a 3-master Redis Cluster with replicas, every rule twice, {@code exact} and {@code
 * local_first} with a 100 ms sync, in one run; for a fixed window and a token bucket, a hot
 * identity at 10 × its limit and 100 identities near theirs, round-robin and skewed (80 % to one
 * instance); every master paused 2 s, then the hot identities' master killed. It asserts the bounds
 * docs/design.md states, for every group and phase ({@link BoundsReport#worstBound}, {@link
 * BoundsReport#excessBound}, {@link BoundsReport#least}):
 *
 * <ul>
 *   <li>a window never admits more than the limit while Redis answers, local-first as exact; while
 *       it fails, at most limit + fleet size × local share; and so does a window with a local
 *       decision while Redis answers (a call that outlived its timeout on this busy machine), of
 *       which there are few: today's exact allowances, as {@code FleetSimulationIT} states them;
 *   <li>a token bucket (burst B, rate r), in any interval [a, b] of an identity's admissions: what
 *       Redis and leases admitted at most B + r × (b − a) + 1 exact, B + r × (b − a + sync) + 1
 *       local-first (the one permit: rounding), in every phase, since it all came out of the one
 *       bucket in Redis; what the instances' local shares admitted (while Redis fails) at most
 *       their bursts + their rates × (b − a) + 1; so while Redis answers and no share decided, the
 *       fleet's admissions are within the first bound;
 *   <li>while Redis answers, admitted ≥ what an exact limiter would admit for the same requests,
 *       less one permit a window of the limit (a call timing out on this busy machine), a bucket's
 *       instants at the phase's ends, and local-first what the instances' leases may strand, F × (c
 *       + ⌊c / 2⌋) a window with c = max(1, ⌊L / 2F⌋) (docs/design.md, Local-first decisions).
 * </ul>
 */
class FleetBoundsIT {
  /** About 40 s: 32 s of traffic, the rest forming the cluster and starting the JVMs. */
  private static final BoundsPlan PLAN =
      BoundsPlan.parse(
          "--consistency=exact,local_first",
          "--sync-millis=100",
          "--hot-limit=10",
          "--near-identities=100",
          "--near-window-millis=2000",
          "--seconds=32",
          "--pause-at-seconds=6",
          "--kill-at-seconds=17",
          "--threads-per-jvm=8",
          "--prefix=bounds-it");

  @Test
  void aFleetOfFourStaysWithinTheStatedBoundsThroughAPauseAndAKill() throws Exception {
    BoundsReport report = FleetBounds.run(PLAN, System.out);
    report.print(System.out);

    assertThat(report.members).allSatisfy(line -> assertThat(line).contains(" errors 0"));
    assertThat(report.faults)
        .extracting(FleetBounds.Fault::name)
        .containsExactly("Redis paused", "master killed");
    assertThat(report.spans).hasSize(5);
    assertThat(report.rows.keySet())
        .extracting(g -> g.consistency().isExact())
        .contains(true, false);
    for (Map.Entry<Group, Map<Span, BoundsRow>> group : report.rows.entrySet()) {
      Group g = group.getKey();
      if (g.hot()) {
        assertThat(group.getValue().keySet())
            .as("%s: a row for every phase", g.name())
            .containsExactlyElementsOf(report.spans);
      }
      for (Map.Entry<Span, BoundsRow> phase : group.getValue().entrySet()) {
        Span span = phase.getKey();
        BoundsRow row = phase.getValue();
        String what = g.name() + ", " + span.name();
        assertThat(row.requests).as("%s: requests", what).isPositive();
        if (g.algorithm() == Algorithm.FIXED_WINDOW) {
          assertWindows(report, g, span, row, what);
        } else {
          assertBucket(report, g, span, row, what);
        }
        if (span.fault() == null) {
          assertThat(row.unitsWithLocal)
              .as("%s: units with a local decision (timeouts), of %d", what, row.units)
              .isLessThan(Math.max(10, row.units / 20));
          assertThat((double) row.admitted)
              .as("%s: admitted, of %d allowed exactly", what, row.allowed)
              .isGreaterThanOrEqualTo(report.least(g, row));
        } else if (g.hot()) {
          assertThat(row.local).as("%s: decided locally while Redis failed", what).isPositive();
        }
      }
    }
  }

  private static void assertWindows(
      BoundsReport report, Group g, Span span, BoundsRow row, String what) {
    assertThat(row.worst)
        .as("%s: worst ÷ limit (excess %.1f)", what, row.excess)
        .isLessThanOrEqualTo(report.worstBound(g, true) + 1e-9);
    if (span.fault() == null) {
      assertThat(row.worstByRedis)
          .as("%s: worst ÷ limit where Redis alone decided", what)
          .isLessThanOrEqualTo(report.worstBound(g, false) + 1e-9);
    }
  }

  private static void assertBucket(
      BoundsReport report, Group g, Span span, BoundsRow row, String what) {
    double bound = report.excessBound(g);
    assertThat(row.excessByRedis)
        .as(
            "%s: Redis's and leases' admissions over burst + rate × t (%s)",
            what, row.worstByRedisInterval)
        .isLessThanOrEqualTo(bound + 1e-9);
    assertThat(row.excessOfShares)
        .as("%s: the local shares' admissions over their bursts + rates × t", what)
        .isLessThanOrEqualTo(BoundsReport.SHARES_ROUNDING + 1e-9);
    if (span.fault() == null && row.local == 0) {
      assertThat(row.excess)
          .as("%s: the fleet's admissions over burst + rate × t while Redis answers", what)
          .isLessThanOrEqualTo(bound + 1e-9);
    }
  }
}
