package dev.sluice.store.redis;

import dev.sluice.metrics.LeaseStatus;
import java.util.concurrent.atomic.LongAdder;

/** How a local-first rule's leases went in this JVM since the store started: {@link LeaseStatus}. */
final class LeaseTally {
  final LongAdder leased = new LongAdder();
  final LongAdder spent = new LongAdder();
  final LongAdder givenBack = new LongAdder();
  final LongAdder diedUnspent = new LongAdder();
  final LongAdder exact = new LongAdder();
  volatile long lastSyncMicros;

  LeaseStatus stats(int leases, long held) {
    return new LeaseStatus(
        leases,
        held,
        lastSyncMicros / 1_000,
        leased.sum(),
        spent.sum(),
        givenBack.sum(),
        diedUnspent.sum(),
        exact.sum());
  }
}
