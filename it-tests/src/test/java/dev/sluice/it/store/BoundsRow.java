package dev.sluice.it.store;

import dev.sluice.algo.Quota;
import dev.sluice.it.store.FleetBoundsMember.Decided;
import java.util.List;
import java.util.Locale;

/**
 * What one group of identities admitted in one phase ({@link BoundsReport}), against two
 * references: the limit, worst case first, and what an exact limiter would have admitted for the
 * same requests ({@code allowed}, replayed through the rule's algorithm).
 *
 * <p>The worst case of a window rule is its fullest identity-window, admitted ÷ limit. A token
 * bucket has no windows: what it may admit in an interval of length t is burst + rate × t, so its
 * worst case is the interval of an identity's admissions, first to last, that exceeded that most
 * ({@link #excess}) and the one with the largest admitted ÷ (burst + rate × t) ({@link #worst}).
 * The excess is also taken apart by who decided: the admissions Redis or a lease decided, all out
 * of the one bucket in Redis, against burst + rate × t ({@link #excessByRedis}), and those the
 * instances' local shares decided ({@code fail_open} while Redis failed), against the shares'
 * buckets together ({@link #excessOfShares}). An interval is taken from its first admission's
 * asking to the latest answer among its admissions: never shorter than the instants the deciders
 * decided at, so an exact bucket is never seen over (up to one permit of rounding).
 */
final class BoundsRow {
  long units;
  long requests;
  long admitted;
  long local;
  long allowed;

  /** Admitted ÷ limit in the fullest identity-window; a bucket: see {@link BoundsRow}. */
  double worst;

  /**
   * Permits admitted over the limit (a window) or over burst + rate × t (a bucket), at most:
   * negative when every unit stayed under.
   */
  double excess = Double.NEGATIVE_INFINITY;

  /** A bucket: what Redis and leases admitted over burst + rate × t, at most. */
  double excessByRedis = Double.NEGATIVE_INFINITY;

  /**
   * A bucket: what the local shares admitted over the shares' bursts + their rates × t, at most.
   */
  double excessOfShares = Double.NEGATIVE_INFINITY;

  /** A bucket: the interval of {@link #excessByRedis}. */
  Interval worstByRedisInterval;

  /**
   * The worst case among the units (identity-windows; a bucket's identities) Redis alone decided.
   */
  double worstByRedis;

  /**
   * Windows, or for a bucket each identity's stretch of admissions in windows' lengths, rounded up.
   */
  long windows;

  /** Units with a decision made locally (Redis failing, or a call that outlived its timeout). */
  long unitsWithLocal;

  void count(Decided d, boolean allowedExactly) {
    requests++;
    admitted += d.allowed() ? 1 : 0;
    local += d.local() ? 1 : 0;
    allowed += allowedExactly ? 1 : 0;
  }

  /**
   * One identity-window of a window rule that admitted {@code count}, with a local decision or not.
   */
  void window(long count, long limit, boolean withLocal) {
    windows++;
    unit(count / (double) limit, withLocal);
    excess = Math.max(excess, count - limit);
  }

  private void unit(double worstOfUnit, boolean withLocal) {
    units++;
    unitsWithLocal += withLocal ? 1 : 0;
    worst = Math.max(worst, worstOfUnit);
    worstByRedis = withLocal ? worstByRedis : Math.max(worstByRedis, worstOfUnit);
  }

  /**
   * The admissions of one identity of a token bucket rule in this phase, in the order asked, with a
   * local decision among its decisions or not; {@code shares} is the fleet's local shares as one
   * bucket (their bursts and rates summed).
   */
  void bucket(List<Decided> admissions, Quota quota, Quota shares, boolean withLocal) {
    Interval all = Interval.worst(admissions, quota);
    List<Decided> byRedis = admissions.stream().filter(d -> !d.local()).toList();
    List<Decided> ofShares = admissions.stream().filter(Decided::local).toList();
    excess = Math.max(excess, all.excess);
    Interval worstByRedis = Interval.worst(byRedis, quota);
    if (!byRedis.isEmpty() && worstByRedis.excess > excessByRedis) {
      excessByRedis = worstByRedis.excess;
      worstByRedisInterval = worstByRedis;
    }
    if (!ofShares.isEmpty()) {
      excessOfShares = Math.max(excessOfShares, Interval.worst(ofShares, shares).excess);
    }
    if (!admissions.isEmpty()) {
      long stretch =
          admissions.get(admissions.size() - 1).askedMicros() - admissions.get(0).askedMicros();
      windows += stretch / quota.windowMicros() + 1;
    }
    unit(all.ratio, withLocal);
  }

  /**
   * The interval of a list of admissions (in the order asked) that exceeded burst + rate × its
   * length most: {@code count} admissions from {@code fromMicros} for {@code lengthMicros}, {@code
   * excess} over, and the largest admitted ÷ (burst + rate × length) of any interval ({@code
   * ratio}). None: excess −burst, ratio 0.
   */
  record Interval(double excess, double ratio, long fromMicros, long lengthMicros, int count) {
    static Interval worst(List<Decided> admissions, Quota quota) {
      Interval worst = new Interval(-quota.burst(), 0, 0, 0, 0);
      double ratio = 0;
      double perMicro = 1.0 / quota.emissionMicros();
      for (int i = 0; i < admissions.size(); i++) {
        long from = admissions.get(i).askedMicros();
        long to = Long.MIN_VALUE;
        for (int j = i; j < admissions.size(); j++) {
          to = Math.max(to, admissions.get(j).answeredMicros());
          double may = quota.burst() + perMicro * (to - from);
          int count = j - i + 1;
          ratio = Math.max(ratio, count / may);
          if (count - may > worst.excess) {
            worst = new Interval(count - may, 0, from, to - from, count);
          }
        }
      }
      return new Interval(worst.excess, ratio, worst.fromMicros, worst.lengthMicros, worst.count);
    }
  }

  double admittedOverAllowed() {
    return allowed == 0 ? 1 : admitted / (double) allowed;
  }

  /**
   * The row's cells after its group and phase; a bucket's excess by who decided ("–": none of
   * theirs), then {@code bound}.
   */
  String cells(String bound) {
    return String.format(
        Locale.ROOT,
        "%,d | %,d | %,d | %,d | %,d | %.3f | %.2f (%+.1f) | %s / %s | %s",
        units,
        requests,
        admitted,
        local,
        allowed,
        admittedOverAllowed(),
        worst,
        excess,
        signed(excessByRedis),
        signed(excessOfShares),
        bound);
  }

  private static String signed(double excess) {
    return excess == Double.NEGATIVE_INFINITY ? "–" : String.format(Locale.ROOT, "%+.1f", excess);
  }
}
