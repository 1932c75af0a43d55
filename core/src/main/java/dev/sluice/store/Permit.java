package dev.sluice.store;

import dev.sluice.algo.Quota;
import dev.sluice.algo.Verdict;

/**
 * A request to take {@code cost} permits of one rule for one identity; the store fills the verdict.
 */
public final class Permit {
  final Counters counters;
  final String identity;
  final Quota quota;
  final long cost;
  final OnError onError;
  final Verdict verdict = new Verdict();
  private boolean decidedLocally;
  private Quota decidedUnder;
  private long take;

  public Permit(Counters counters, String identity, Quota quota, long cost, OnError onError) {
    this.counters = counters;
    this.identity = identity;
    this.quota = quota;
    this.cost = cost;
    this.onError = onError;
  }

  /** A permit of a rule that fails open, the default. */
  public Permit(Counters counters, String identity, Quota quota, long cost) {
    this(counters, identity, quota, cost, OnError.FAIL_OPEN);
  }

  public Counters counters() {
    return counters;
  }

  /** The escaped identity; safe in a Redis key, see {@code dev.sluice.core.Identity}. */
  public String identity() {
    return identity;
  }

  public Quota quota() {
    return quota;
  }

  public long cost() {
    return cost;
  }

  /** What to do when the store cannot answer for this permit. */
  public OnError onError() {
    return onError;
  }

  public Verdict verdict() {
    return verdict;
  }

  /**
   * Whether the verdict was reached in this JVM by the rule's {@code on_error}, because the shared
   * store could not answer.
   */
  public boolean decidedLocally() {
    return decidedLocally;
  }

  /**
   * What a shared store's server took when it allowed this permit (a bucket's TAT, a window's
   * index), in the server's time, or its local share in this JVM's when {@link #decidedLocally}:
   * what {@link Store#refund} gives back. 0 until then.
   */
  public long take() {
    return take;
  }

  /** Records what the shared store's server took for this allowed permit. */
  public void tookAt(long take) {
    this.take = take;
  }

  /** Says that the verdict is this JVM's, by the rule's {@code on_error}: a store's fallback. */
  public void markDecidedLocally() {
    decidedLocally = true;
  }

  /** Says that the verdict is this JVM's, reached under {@code share}, its part of the quota. */
  public void markDecidedLocally(Quota share) {
    decidedLocally = true;
    decidedUnder = share;
  }

  /**
   * The quota the verdict was reached under: the rule's, or this JVM's share of it when decided
   * locally. A delayed request's wait is its verdict's under that quota.
   */
  public Quota decidedUnder() {
    return decidedUnder == null ? quota : decidedUnder;
  }
}
