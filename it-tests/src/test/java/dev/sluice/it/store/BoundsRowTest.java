package dev.sluice.it.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.sluice.algo.Quota;
import dev.sluice.it.store.FleetBoundsMember.Decided;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How {@link BoundsRow} measures a token bucket's excess, on hand-made admissions. */
class BoundsRowTest {
  /** 10 a second, burst 10: one permit every 100 ms. */
  private static final Quota QUOTA = Quota.of(10, 1_000_000, 10);

  /** The fleet's local shares of it in a fleet of 4: 8 a second, burst 8. */
  private static final Quota SHARES = Quota.of(8, 1_000_000, 8);

  @Test
  void aFullBurstAtOneInstantIsExactlyTheBucketAndTwoMoreAreTwoOver() {
    assertThat(BoundsRow.Interval.worst(at(0, 10, false), QUOTA).excess())
        .isCloseTo(0, within(1e-9));
    BoundsRow.Interval over = BoundsRow.Interval.worst(at(0, 12, false), QUOTA);
    assertThat(over.excess()).isCloseTo(2, within(1e-9));
    assertThat(over.count()).isEqualTo(12);
  }

  @Test
  void anIntervalEndsAtTheLatestAnswerAmongItsAdmissions() {
    List<Decided> admissions = new ArrayList<>(at(0, 11, false));
    // asked with the others but answered 200 ms later: it may have been decided then, when 2
    // permits had refilled, so the 11 are not one over (the 10 others, at one instant, are 0 over)
    admissions.set(0, decided(0, 200_000, false));
    BoundsRow.Interval worst = BoundsRow.Interval.worst(admissions, QUOTA);
    assertThat(worst.excess()).isCloseTo(0, within(1e-9));
    assertThat(worst.count()).isEqualTo(10);
  }

  @Test
  void aRowJudgesRedisAndTheLocalSharesApart() {
    List<Decided> admissions = new ArrayList<>(at(0, 10, false));
    admissions.addAll(at(1, 9, true)); // the shares: one over their burst of 8
    BoundsRow row = new BoundsRow();
    row.bucket(admissions, QUOTA, SHARES, true);

    assertThat(row.excessByRedis).isCloseTo(0, within(1e-9));
    assertThat(row.excessOfShares).isCloseTo(1, within(1e-9));
    assertThat(row.excess).isCloseTo(9, within(1e-3)); // 1 µs refilled 1e-5
  }

  @Test
  void aRowWithoutLocalAdmissionsHasNoExcessOfShares() {
    BoundsRow row = new BoundsRow();
    row.bucket(at(0, 3, false), QUOTA, SHARES, false);

    assertThat(row.excessOfShares).isEqualTo(Double.NEGATIVE_INFINITY);
    assertThat(row.excessByRedis).isCloseTo(-7, within(1e-9));
  }

  private static List<Decided> at(long micros, int count, boolean local) {
    List<Decided> list = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      list.add(decided(micros, micros, local));
    }
    return list;
  }

  private static Decided decided(long asked, long answered, boolean local) {
    return new Decided(0, 0, asked, answered, true, local, -1);
  }
}
