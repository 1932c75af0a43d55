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

  /**
   * Token bucket with a delay: how far ahead of now the bucket may be spent by a request that
   * passes at once; beyond it, up to {@link #toleranceMicros}, a request waits. Equal to the
   * tolerance without a delay.
   */
  final long promptMicros;

  /** Token bucket with a delay: requests over the rate that pass at once; 0 without a delay. */
  final long immediate;

  /** {@link #limit} in decimal, made once: every limited response carries it. */
  private final String limitText;

  private Quota(long limit, long windowMicros, long burst, long emissionMicros) {
    this(
        limit,
        windowMicros,
        burst,
        emissionMicros,
        burst * emissionMicros,
        burst * emissionMicros,
        0);
  }

  private Quota(
      long limit,
      long windowMicros,
      long burst,
      long emissionMicros,
      long toleranceMicros,
      long promptMicros,
      long immediate) {
    this.limit = limit;
    this.limitText = Long.toString(limit);
    this.windowMicros = windowMicros;
    this.burst = burst;
    this.emissionMicros = emissionMicros;
    this.toleranceMicros = toleranceMicros;
    this.promptMicros = promptMicros;
    this.immediate = immediate;
  }

  /**
   * This token bucket's rate, as a queue (nginx's {@code limit_req} with {@code delay}): the first
   * {@code immediate} requests beyond the rate pass at once, each one after them reserves the next
   * slot, spaced one emission apart, and waits for it, as long as that wait is at most {@code
   * maxWaitMicros}. It is GCRA with a tolerance of ({@code immediate + cost}) emissions plus the
   * longest wait: a store reserves a slot exactly as it takes a permit (the TAT is the slot), and
   * the wait is what of the reservation lies beyond the prompt part, see {@link #waitMicros}.
   *
   * @throws IllegalArgumentException if a value is negative or the queue would be absurdly long
   */
  public Quota delayed(long immediate, long cost, long maxWaitMicros) {
    if (immediate < 0 || cost <= 0 || maxWaitMicros < 0) {
      throw new IllegalArgumentException("immediate and max_wait must not be negative");
    }
    if (immediate + cost > MAX_TOLERANCE_MICROS / emissionMicros / 2
        || maxWaitMicros > MAX_TOLERANCE_MICROS / 2) {
      throw new IllegalArgumentException("the delay is too large");
    }
    long prompt = (immediate + cost) * emissionMicros;
    long tolerance = prompt + maxWaitMicros;
    return new Quota(
        limit,
        windowMicros,
        tolerance / emissionMicros,
        emissionMicros,
        tolerance,
        prompt,
        immediate);
  }

  /**
   * This quota as one of {@code n} equal shares, as a JVM of a fleet of {@code n} enforces it
   * alone: limit ÷ n and burst ÷ n, at least one each, on the same window. A delay stays a delay:
   * the same longest wait, immediate ÷ n passing at once, the rest spaced at the share's rate.
   */
  public Quota share(int n) {
    Quota share = of(Math.max(1, limit / n), windowMicros, Math.max(1, burst / n));
    if (!isDelayed()) {
      return share;
    }
    long cost = promptMicros / emissionMicros - immediate;
    return share.delayed(immediate / n, cost, toleranceMicros - promptMicros);
  }

  /** True when a request of this quota may be held until its slot rather than denied. */
  public boolean isDelayed() {
    return promptMicros != toleranceMicros;
  }

  /**
   * How long a request allowed by {@code v} under this quota must wait for its slot: 0 without a
   * delay, or when denied, or when it passes at once.
   */
  public long waitMicros(Verdict v) {
    return v.allowed && isDelayed() ? Math.max(0, v.resetMicros - promptMicros) : 0;
  }

  /**
   * Of what {@code v} says remains, the requests of cost 1 that would pass at once: with a delay,
   * its places in the queue are not counted (they wait), and never more than the limit, which a
   * client reads beside it. Without a delay, {@code v}'s remaining as it is.
   */
  public long promptRemaining(Verdict v) {
    if (!isDelayed()) {
      return v.remaining;
    }
    return Math.min(Math.min(promptLeft(v), v.remaining), limit);
  }

  /**
   * With a delay, the places left in its queue by {@code v}: requests of cost 1 that would wait for
   * a slot now, beyond those that pass at once. 0 without a delay.
   */
  public long queueRemaining(Verdict v) {
    if (!isDelayed()) {
      return 0;
    }
    return Math.max(0, v.remaining - promptLeft(v));
  }

  /** Requests of cost 1 that fit the prompt part of the bucket as {@code v} left it. */
  private long promptLeft(Verdict v) {
    return v.resetMicros >= promptMicros ? 0 : (promptMicros - v.resetMicros) / emissionMicros;
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
    return limit
        + "/"
        + windowMicros
        + "µs burst "
        + burst
        + (isDelayed() ? " waiting up to " + (toleranceMicros - promptMicros) + "µs" : "");
  }
}
