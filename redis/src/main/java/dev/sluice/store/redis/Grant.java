package dev.sluice.store.redis;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One block of permits lease.lua took from a key's count for this JVM: spent by compare-and-set on
 * its count of unspent permits, with no lock and no allocation, until it dies. A dead grant's count
 * is {@link #DEAD}: whoever killed it took what was left, to give back, and nothing is spent from it
 * after.
 */
final class Grant {
  /** The count of a dead grant: far below zero, so that putting permits back leaves it dead. */
  private static final long DEAD = Long.MIN_VALUE / 2;

  final long size;

  /** What lease.lua took: the window index of the permits, or the bucket's TAT; refund.lua's take. */
  final long take;

  /** When it dies by this JVM's clock: its window's end, or sync after it was sent for (bucket). */
  final long expiresAt;

  /** When it was sent for, by this JVM's clock. */
  final long sentAt;

  /** What Redis said remained once it had taken this grant. */
  final long remaining;

  /** When the count is whole again, as Redis said, by this JVM's clock. */
  final long resetAt;

  private final AtomicLong left;

  Grant(long size, long take, long expiresAt, long sentAt, long remaining, long resetAt) {
    this.size = size;
    this.take = take;
    this.expiresAt = expiresAt;
    this.sentAt = sentAt;
    this.remaining = remaining;
    this.resetAt = resetAt;
    this.left = new AtomicLong(size);
  }

  /**
   * The grant of lease.lua's {@code reply} to a call sent at {@code sentAt}, or null for a reply
   * that granted nothing. A window's grant dies when its window ends: the window's end by Redis is
   * at most the time left it replied after the moment this JVM sent the call, so a grant never
   * outlives its window. A bucket's dies {@code syncMicros} after it was sent for.
   */
  static Grant of(List<?> reply, long sentAt, long syncMicros, boolean window) {
    long size = (Long) reply.get(0);
    if (size == 0) {
      return null;
    }
    long expiresAt = window ? sentAt + (Long) reply.get(4) : sentAt + syncMicros;
    return new Grant(
        size,
        (Long) reply.get(3),
        expiresAt,
        sentAt,
        (Long) reply.get(1),
        sentAt + (Long) reply.get(2));
  }

  /** Takes {@code cost} permits; false if fewer are left, or it is dead. */
  boolean spend(long cost) {
    for (long l = left.get(); l >= cost; l = left.get()) {
      if (left.compareAndSet(l, l - cost)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Puts back permits spent for a request that was denied after all; false if it died meanwhile
   * (they stay counted in Redis, unused: stranded, never admitted twice).
   */
  boolean putBack(long cost) {
    return left.addAndGet(cost) > 0;
  }

  /** Unspent permits, or a negative number once dead. */
  long left() {
    return left.get();
  }

  boolean expired(long now) {
    return now >= expiresAt;
  }

  /** Kills it; returns what was left unspent (0 if it was dead already). */
  long kill() {
    long l = left.getAndSet(DEAD);
    return Math.max(0, l);
  }
}
