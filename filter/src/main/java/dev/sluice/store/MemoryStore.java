package dev.sluice.store;

import dev.sluice.algo.Algorithm;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The embedded store: exact on one JVM, bounded in memory.
 *
 * <p>Why it looks like this. Each rule has its own {@link Table}, a map from identity to a small
 * {@link Cell}, so an idle key costs one map node, the identity string and 32 bytes of state. Each
 * cell is guarded by its own monitor, and a request that spans several rules locks its cells in
 * table order: checking every rule and then committing all or none is one atomic step, with no
 * global lock and no deadlock. Idle cells equal fresh ones, so a background sweep drops them
 * without losing a count, and a {@link KeyBudget} caps how many cells may exist at all.
 */
public final class MemoryStore implements Store {
  public static final long DEFAULT_MAX_KEYS = 1_000_000;
  private static final Logger LOG = Logger.getLogger("dev.sluice.store");
  private static final Comparator<Permit> LOCK_ORDER =
      new Comparator<Permit>() {
        @Override
        public int compare(Permit a, Permit b) {
          return Integer.compare(((Table) a.counters).ordinal, ((Table) b.counters).ordinal);
        }
      };

  private final Clock clock;
  private final KeyBudget budget;
  private final ConcurrentHashMap<String, Table> tables = new ConcurrentHashMap<>();
  private final AtomicInteger ordinals = new AtomicInteger();
  private final ScheduledExecutorService sweeper;

  /**
   * @param sweepEveryMillis how often a daemon thread drops idle keys; 0 for none (tests call
   *     {@link #sweep()} themselves)
   */
  public MemoryStore(Clock clock, long maxKeys, long sweepEveryMillis) {
    this.clock = clock;
    this.budget = new KeyBudget(maxKeys);
    this.sweeper = sweepEveryMillis > 0 ? startSweeper(sweepEveryMillis) : null;
  }

  @Override
  public Counters counters(String ruleId, Algorithm algorithm, long windowMicros) {
    String name = ruleId + '/' + algorithm + '/' + windowMicros;
    Table table = tables.get(name);
    if (table == null) {
      Table fresh = new Table(ruleId, algorithm, windowMicros, ordinals.incrementAndGet(), budget);
      table = tables.putIfAbsent(name, fresh);
      table = table == null ? fresh : table;
    }
    return table;
  }

  @Override
  public void acquire(List<Permit> permits) {
    long now = clock.micros();
    if (permits.size() == 1) {
      Permit permit = permits.get(0);
      while (!decideOne(permit, now)) {
        // The cell was swept between lookup and lock: look it up again.
      }
      return;
    }
    Permit[] ordered = permits.toArray(new Permit[0]);
    Arrays.sort(ordered, LOCK_ORDER);
    Cell[] cells = new Cell[ordered.length];
    do {
      for (int i = 0; i < ordered.length; i++) {
        cells[i] = cellOf(ordered[i]);
      }
    } while (!lockFrom(0, ordered, cells, now));
  }

  private static Cell cellOf(Permit permit) {
    return ((Table) permit.counters).cell(permit.identity);
  }

  /** The common case, one rule: no arrays, one monitor. False if the cell died meanwhile. */
  private static boolean decideOne(Permit p, long now) {
    Cell cell = cellOf(p);
    synchronized (cell) {
      if (cell.dead) {
        return false;
      }
      p.counters.algorithm().evaluate(cell, now, p.quota, p.cost, p.verdict);
      if (p.verdict.allowed()) {
        cell.commit(p.verdict);
      }
      return true;
    }
  }

  /** Locks cells[i..] in order, then decides; false if a cell died meanwhile. */
  private static boolean lockFrom(int i, Permit[] permits, Cell[] cells, long now) {
    if (i == cells.length) {
      return decideLocked(permits, cells, now);
    }
    synchronized (cells[i]) {
      return lockFrom(i + 1, permits, cells, now);
    }
  }

  /** Evaluates every permit, then commits all of them or none. Caller holds every cell's monitor. */
  private static boolean decideLocked(Permit[] permits, Cell[] cells, long now) {
    boolean allAllowed = true;
    for (int i = 0; i < cells.length; i++) {
      if (cells[i].dead) {
        return false;
      }
      Permit p = permits[i];
      p.counters.algorithm().evaluate(cells[i], now, p.quota, p.cost, p.verdict);
      allAllowed &= p.verdict.allowed();
    }
    if (allAllowed) {
      for (int i = 0; i < cells.length; i++) {
        cells[i].commit(permits[i].verdict);
      }
    }
    return true;
  }

  @Override
  public void retainOnly(Collection<? extends Counters> live) {
    Map<Counters, Boolean> keep = new IdentityHashMap<>();
    for (Counters c : live) {
      keep.put(c, Boolean.TRUE);
    }
    for (Map.Entry<String, Table> entry : tables.entrySet()) {
      if (!keep.containsKey(entry.getValue()) && tables.remove(entry.getKey(), entry.getValue())) {
        entry.getValue().retire();
      }
    }
  }

  /** Drops every idle key now. */
  public void sweep() {
    long now = clock.micros();
    for (Table table : tables.values()) {
      table.sweep(now);
    }
    budget.checkRecovered();
  }

  /** The number of identities tracked, across rules. */
  public long keyCount() {
    return budget.used();
  }

  /** Stops the sweeper and waits for it, so a container undeploying the app sees no thread left. */
  @Override
  public void close() {
    if (sweeper != null) {
      sweeper.shutdownNow();
      try {
        sweeper.awaitTermination(1, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private ScheduledExecutorService startSweeper(long everyMillis) {
    ScheduledExecutorService executor =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "sluice-memory-sweeper");
              t.setDaemon(true);
              return t;
            });
    executor.scheduleWithFixedDelay(this::sweepQuietly, everyMillis, everyMillis,
        TimeUnit.MILLISECONDS);
    return executor;
  }

  private void sweepQuietly() {
    try {
      sweep();
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "Sluice memory sweep failed; will retry", e);
    }
  }
}
