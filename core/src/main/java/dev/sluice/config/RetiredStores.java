package dev.sluice.config;

import dev.sluice.store.Clock;
import dev.sluice.store.Store;
import java.io.Closeable;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Stores a switch has replaced, each closed once its grace period is over. A decision that began
 * before the switch may still be using the old store; every wait of a decision is bounded by the
 * store's timeout (50 ms by default), so the grace is far longer than any decision. The reloads,
 * which run every second, close what is due: no thread of its own, none left behind.
 */
final class RetiredStores implements Closeable {
  static final long GRACE_MICROS = 10_000_000;

  private final Clock clock;
  private final Deque<Retired> retired = new ArrayDeque<>();

  RetiredStores(Clock clock) {
    this.clock = clock;
  }

  void add(Store store) {
    retired.add(new Retired(store, clock.micros() + GRACE_MICROS));
  }

  /** Closes the stores whose grace is over; the oldest come first, as the grace never changes. */
  void closeDue() {
    long now = clock.micros();
    while (!retired.isEmpty() && retired.peek().dueMicros <= now) {
      retired.remove().store.close();
    }
  }

  /** Closes every store at once: nothing decides any more. */
  @Override
  public void close() {
    while (!retired.isEmpty()) {
      retired.remove().store.close();
    }
  }

  private static final class Retired {
    final Store store;
    final long dueMicros;

    Retired(Store store, long dueMicros) {
      this.store = store;
      this.dueMicros = dueMicros;
    }
  }
}
