package dev.sluice.store.redis;

import dev.sluice.metrics.LeaseStats;
import java.util.concurrent.atomic.LongAdder;

/** How a local-first rule's leases went in this JVM since the store started: {@link LeaseStats}. */
final class LeaseTally {
  /** The rule's consistency when its last lease was made, as ratelimit.yaml says it. */
  volatile String consistency;
  final LongAdder leased = new LongAdder();
  final LongAdder spent = new LongAdder();
  final LongAdder givenBack = new LongAdder();
  final LongAdder diedUnspent = new LongAdder();
  volatile long lastSyncMicros;

  LeaseStats stats(int leases, long held) {
    return new LeaseStats(
        consistency,
        leases,
        held,
        lastSyncMicros,
        leased.sum(),
        spent.sum(),
        givenBack.sum(),
        diedUnspent.sum());
  }
}
