package dev.sluice.algo;

/**
 * How much one identity may take under one rule: {@code limit} permits per window, and for the
 * token bucket a capacity of {@code burst}. Immutable and precomputed per rule and tier, so the
 * request path never allocates one.
 */
public final class Quota {
  /** Beyond this a bucket would take longer than 146,000 years to refill: surely a typo. */
  private static final long MAX_TOLERANCE_MICROS = 1L << 62;

  final long limit;
  final long windowMicros;
  final long burst;

  /**
   * Token bucket: microseconds that earn one permit, rounded up so the rate never exceeds limit.
   */
  final long emissionMicros;

  /** Token bucket: how far ahead of now the bucket may be spent, {@code burst × emission}. */
  final long toleranceMicros;

  /** {@link #limit} in decimal, made once: every limited response carries it. */
  private final String limitText;

  private Quota(long limit, long windowMicros, long burst, long emissionMicros) {
    this.limit = limit;
    this.limitText = Long.toString(limit);
    this.windowMicros = windowMicros;
    this.burst = burst;
    this.emissionMicros = emissionMicros;
    this.toleranceMicros = burst * emissionMicros;
  }

  /**
   * Returns the quota of {@code limit} permits per {@code windowMicros} with a bucket of {@code
   * burst}.
   *
   * @throws IllegalArgumentException if a value is not positive or the bucket would be absurdly
   *     large
   */
  public static Quota of(long limit, long windowMicros, long burst) {
    if (limit <= 0 || windowMicros <= 0 || burst <= 0) {
      throw new IllegalArgumentException("limit, window and burst must be positive");
    }
    long emission = (windowMicros + limit - 1) / limit;
    if (burst > MAX_TOLERANCE_MICROS / emission) {
      throw new IllegalArgumentException("burst × window / limit is too large");
    }
    return new Quota(limit, windowMicros, burst, emission);
  }

  public long limit() {
    return limit;
  }

  /** The limit in decimal, as a header carries it. */
  public String limitText() {
    return limitText;
  }

  public long windowMicros() {
    return windowMicros;
  }

  public long burst() {
    return burst;
  }

  /** Token bucket: microseconds that earn one permit. */
  public long emissionMicros() {
    return emissionMicros;
  }

  /** Token bucket: how far ahead of now the bucket may be spent. */
  public long toleranceMicros() {
    return toleranceMicros;
  }

  @Override
  public String toString() {
    return limit + "/" + windowMicros + "µs burst " + burst;
  }
}
