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
  final Verdict verdict = new Verdict();

  public Permit(Counters counters, String identity, Quota quota, long cost) {
    this.counters = counters;
    this.identity = identity;
    this.quota = quota;
    this.cost = cost;
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

  public Verdict verdict() {
    return verdict;
  }
}
