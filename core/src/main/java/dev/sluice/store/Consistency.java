package dev.sluice.store;

/**
 * How a shared store decides a rule's permits. {@link #EXACT}, the default: every decision is
 * Redis's, made while the request waits. {@link #localFirst}: the JVM decides from permits it took
 * from the shared count ahead of need (a lease), and settles with Redis in the background, at least
 * every {@code sync}, so a request seldom waits for Redis; the price is a bounded error, stated in
 * docs/design.md ("Local-first decisions"). A store in one JVM is exact either way.
 */
public final class Consistency {
  public static final Consistency EXACT = new Consistency(0);

  private final long syncMicros;

  private Consistency(long syncMicros) {
    this.syncMicros = syncMicros;
  }

  /**
   * Local-first decisions settled with Redis at least every {@code syncMicros}: the longest a lease
   * lives, and so how stale a JVM's view of the fleet's count may be.
   *
   * @throws IllegalArgumentException if {@code syncMicros} is not positive
   */
  public static Consistency localFirst(long syncMicros) {
    if (syncMicros <= 0) {
      throw new IllegalArgumentException("sync must be positive");
    }
    return new Consistency(syncMicros);
  }

  /**
   * The most permits one lease grant holds for a quota of {@code limit} shared by {@code fleet}
   * JVMs: max(1, limit ÷ 2 × fleet), so that no JVM holds what the others need. The store sizes
   * grants by it, and {@code check} states the stranding bound from it.
   */
  public static long grantCap(long limit, int fleet) {
    return Math.max(1, limit / (2L * fleet));
  }

  public boolean isExact() {
    return syncMicros == 0;
  }

  /** The longest a lease lives; 0 when exact. */
  public long syncMicros() {
    return syncMicros;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Consistency && ((Consistency) o).syncMicros == syncMicros;
  }

  @Override
  public int hashCode() {
    return Long.hashCode(syncMicros);
  }

  /** As ratelimit.yaml says it. */
  @Override
  public String toString() {
    return isExact() ? "exact" : "local_first (sync " + syncMicros / 1000 + " ms)";
  }
}
