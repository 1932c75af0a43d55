package dev.sluice.admin;

/**
 * The wrong tokens typed into the login form, bounded: after {@link #MAX} in any {@link
 * #WINDOW_MILLIS} the form takes no token at all, right or wrong, until the oldest of them is that
 * old. So whoever reaches the form tries at most {@link #MAX} guesses a minute, against a token of
 * at least 16 characters; the price is that such a flood also keeps operators out of the form for
 * that minute (never out of the endpoint: the bearer token still opens it). One count for the whole
 * endpoint, not per address: addresses are what an attacker has many of.
 */
final class FailedLogins {
  static final int MAX = 10;
  static final long WINDOW_MILLIS = 60_000;

  /** When the last {@link #MAX} failures happened, as a ring; 0 where none was yet. */
  private final long[] times = new long[MAX];

  private int next;
  private long total;

  /**
   * Milliseconds from {@code nowMillis} until the form takes a token again; 0 when it takes one
   * now.
   */
  synchronized long lockedFor(long nowMillis) {
    long oldest = times[next];
    return oldest == 0 ? 0 : Math.max(0, oldest + WINDOW_MILLIS - nowMillis);
  }

  /** Counts a wrong token typed at {@code nowMillis}; returns how many were typed in all. */
  synchronized long failed(long nowMillis) {
    times[next] = nowMillis;
    next = (next + 1) % MAX;
    return ++total;
  }
}
