package dev.sluice.core;

/**
 * A rule's {@code delay}: a request over the rate is held until its slot rather than denied, as
 * nginx's {@code limit_req} does with {@code burst} and {@code delay}. The slots themselves are in
 * the rule's quotas ({@link dev.sluice.algo.Quota#delayed}); this says how many may wait at once.
 */
public final class Delay {
  /**
   * Requests of one rule waiting at once when {@code max_waiting} is not given: as many as the
   * file's default for all rules ({@link Rules#DEFAULT_MAX_WAITING}).
   */
  public static final int DEFAULT_MAX_WAITING = Rules.DEFAULT_MAX_WAITING;

  /**
   * The longest {@code max_wait} a file may give: a minute. A request held longer is never what a
   * client wants, and it holds a place (or a server thread) all that time.
   */
  public static final long MAX_WAIT_MICROS = 60_000_000L;

  private final long maxWaitMicros;
  private final long immediate;
  private final int maxWaiting;

  public Delay(long maxWaitMicros, long immediate, int maxWaiting) {
    this.maxWaitMicros = maxWaitMicros;
    this.immediate = immediate;
    this.maxWaiting = maxWaiting;
  }

  /** The longest a request waits for its slot; one that would wait longer is denied at once. */
  public long maxWaitMicros() {
    return maxWaitMicros;
  }

  /** Requests over the rate that pass at once before the others wait (nginx's {@code delay=N}). */
  public long immediate() {
    return immediate;
  }

  /** Requests of this rule that may wait at once in one JVM; beyond them, denied at once. */
  public int maxWaiting() {
    return maxWaiting;
  }

  @Override
  public String toString() {
    return "delay max_wait="
        + maxWaitMicros
        + "µs immediate="
        + immediate
        + " max_waiting="
        + maxWaiting;
  }
}
