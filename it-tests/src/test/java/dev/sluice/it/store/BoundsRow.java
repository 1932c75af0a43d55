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
 * ({@link #excess}) and the one with the largest admitted ÷ (burst + rate × t) ({@link #worst}). An
 * interval is taken from its first request's asking to its last one's answer: never shorter than
 * the instants the store decided at, so an exact bucket is never seen over (up to one permit of
 * rounding).
 */
final class BoundsRow {
  long units;
  long requests;
  long admitted;
  long local;
  long allowed;

  /** Admitted ÷ limit in the fullest identity-window; a bucket: see {@link BoundsRow}. */
  double worst;

  /** Permits admitted over the limit (a window) or over burst + rate × t (a bucket), at most. */
  double excess;

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
   * local decision among its decisions or not.
   */
  void bucket(List<Decided> admissions, Quota quota, boolean withLocal) {
    double worstOfUnit = 0;
    double burst = quota.burst();
    double perMicro = 1.0 / quota.emissionMicros();
    for (int j = 0; j < admissions.size(); j++) {
      long end = admissions.get(j).answeredMicros();
      for (int i = 0; i <= j; i++) {
        double may = burst + perMicro * (end - admissions.get(i).askedMicros());
        int count = j - i + 1;
        worstOfUnit = Math.max(worstOfUnit, count / may);
        excess = Math.max(excess, count - may);
      }
    }
    if (!admissions.isEmpty()) {
      long stretch =
          admissions.get(admissions.size() - 1).askedMicros() - admissions.get(0).askedMicros();
      windows += stretch / quota.windowMicros() + 1;
    }
    unit(worstOfUnit, withLocal);
  }

  double admittedOverAllowed() {
    return allowed == 0 ? 1 : admitted / (double) allowed;
  }

  String cells(String bound) {
    return String.format(
        Locale.ROOT,
        "%,d | %,d | %,d | %,d | %,d | %.3f | %.2f (%+.1f) | %s",
        units,
        requests,
        admitted,
        local,
        allowed,
        admittedOverAllowed(),
        worst,
        excess,
        bound);
  }
}
