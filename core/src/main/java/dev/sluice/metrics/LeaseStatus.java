package dev.sluice.metrics;

/**
 * What a shared store knows of one local-first rule's leases in this JVM, read at one moment:
 * immutable. A lease is a block of permits this JVM took from an identity's shared count to spend
 * without asking Redis; what it never spent is the rule's measured under-admission here.
 */
public final class LeaseStatus {
  private final int leases;
  private final long permitsHeld;
  private final long lastSyncMillis;
  private final long leased;
  private final long spent;
  private final long givenBack;
  private final long unspent;
  private final long exact;

  /**
   * @param leases identities this JVM holds a lease for now
   * @param permitsHeld permits of those leases not spent yet: this JVM's local allowance
   * @param lastSyncMillis when Redis last answered for a lease, ms since the epoch; 0 never
   * @param leased permits taken from Redis in leases since the rule came into force here
   * @param spent of those, permits spent on requests
   * @param givenBack of those, permits given back to Redis unused
   * @param unspent of those, permits whose lease died before they were spent or given back
   * @param exact permits of the rule decided otherwise than from a lease: the exact way (a cold or
   *     slow identity's, a cost above a grant, beyond the most leases a store keeps), or by {@code
   *     on_error} while Redis fails
   */
  public LeaseStatus(
      int leases,
      long permitsHeld,
      long lastSyncMillis,
      long leased,
      long spent,
      long givenBack,
      long unspent,
      long exact) {
    this.leases = leases;
    this.permitsHeld = permitsHeld;
    this.lastSyncMillis = lastSyncMillis;
    this.leased = leased;
    this.spent = spent;
    this.givenBack = givenBack;
    this.unspent = unspent;
    this.exact = exact;
  }

  public int leases() {
    return leases;
  }

  public long permitsHeld() {
    return permitsHeld;
  }

  public long lastSyncMillis() {
    return lastSyncMillis;
  }

  public long leased() {
    return leased;
  }

  public long spent() {
    return spent;
  }

  public long givenBack() {
    return givenBack;
  }

  public long unspent() {
    return unspent;
  }

  public long exact() {
    return exact;
  }
}
