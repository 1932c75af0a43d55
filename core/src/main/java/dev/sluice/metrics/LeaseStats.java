package dev.sluice.metrics;

/**
 * A local-first rule's leases in one JVM, read at one moment: what it holds and how the permits it
 * leased from the shared store went. Immutable. Permits leased = spent + given back + died unspent
 * + held, but for permits in flight as it is read.
 */
public final class LeaseStats {
  private final String consistency;
  private final int leases;
  private final long held;
  private final long lastSyncMicros;
  private final long leased;
  private final long spent;
  private final long givenBack;
  private final long diedUnspent;

  public LeaseStats(
      String consistency,
      int leases,
      long held,
      long lastSyncMicros,
      long leased,
      long spent,
      long givenBack,
      long diedUnspent) {
    this.consistency = consistency;
    this.leases = leases;
    this.held = held;
    this.lastSyncMicros = lastSyncMicros;
    this.leased = leased;
    this.spent = spent;
    this.givenBack = givenBack;
    this.diedUnspent = diedUnspent;
  }

  /** The rule's consistency as ratelimit.yaml says it, {@code local_first (sync 100 ms)} say. */
  public String consistency() {
    return consistency;
  }

  /** Identities (keys) this JVM holds a lease of. */
  public int leases() {
    return leases;
  }

  /** Permits held unspent in this JVM: its local allowance. */
  public long held() {
    return held;
  }

  /** When the shared store last answered a lease call, in microseconds since the epoch; 0: never. */
  public long lastSyncMicros() {
    return lastSyncMicros;
  }

  /** Permits granted by the shared store since the store started. */
  public long leased() {
    return leased;
  }

  /** Leased permits spent on requests. */
  public long spent() {
    return spent;
  }

  /** Unspent permits given back to the shared store while they still counted there. */
  public long givenBack() {
    return givenBack;
  }

  /**
   * Unspent permits that could not be given back (their window had ended, or the store was not
   * reachable): the under-admission measured, requests the limit would have allowed.
   */
  public long diedUnspent() {
    return diedUnspent;
  }

  @Override
  public String toString() {
    return consistency
        + ": "
        + leases
        + " leases, "
        + held
        + " held; leased "
        + leased
        + ", spent "
        + spent
        + ", given back "
        + givenBack
        + ", died unspent "
        + diedUnspent;
  }
}
