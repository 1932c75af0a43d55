package dev.sluice.store;

import dev.sluice.algo.Algorithm;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The cells of one rule, keyed by identity alone (the rule is the table), which keeps an idle key
 * small. When the key budget is spent, new identities share the overflow cell: they stay limited,
 * together, rather than unlimited or evicting someone else's live count.
 */
final class Table implements Counters {
  private final String ruleId;
  private final Algorithm algorithm;
  private final long windowMicros;
  /** Lock order across tables: a request locks its cells by ascending ordinal. */
  final int ordinal;

  private final KeyBudget budget;
  private final ConcurrentHashMap<String, Cell> cells = new ConcurrentHashMap<>();
  private final Cell overflow = new Cell();
  private volatile boolean retired;

  Table(String ruleId, Algorithm algorithm, long windowMicros, int ordinal, KeyBudget budget) {
    this.ruleId = ruleId;
    this.algorithm = algorithm;
    this.windowMicros = windowMicros;
    this.ordinal = ordinal;
    this.budget = budget;
  }

  Cell cell(String identity) {
    Cell cell = cells.get(identity);
    if (cell != null) {
      return cell;
    }
    if (retired || !budget.tryTake()) {
      return overflow;
    }
    Cell fresh = new Cell();
    Cell raced = cells.putIfAbsent(identity, fresh);
    if (raced != null) {
      budget.give(1);
      return raced;
    }
    if (retired) {
      // Lost a race with retire(): make sure the budget gets this key back.
      synchronized (fresh) {
        remove(identity, fresh);
      }
    }
    return fresh;
  }

  /** Drops every cell that is idle at {@code now}; returns how many were dropped. */
  int sweep(long now) {
    int dropped = 0;
    for (Map.Entry<String, Cell> entry : cells.entrySet()) {
      Cell cell = entry.getValue();
      synchronized (cell) {
        if (algorithm.idleAtMicros(cell, windowMicros) <= now && remove(entry.getKey(), cell)) {
          dropped++;
        }
      }
    }
    return dropped;
  }

  /** Forgets every cell: the rule is gone. In-flight requests see dead cells and overflow. */
  void retire() {
    retired = true;
    for (Map.Entry<String, Cell> entry : cells.entrySet()) {
      Cell cell = entry.getValue();
      synchronized (cell) {
        remove(entry.getKey(), cell);
      }
    }
  }

  private boolean remove(String identity, Cell cell) {
    if (!cells.remove(identity, cell)) {
      return false;
    }
    cell.dead = true;
    budget.give(1);
    return true;
  }

  int size() {
    return cells.size();
  }

  @Override
  public String ruleId() {
    return ruleId;
  }

  @Override
  public Algorithm algorithm() {
    return algorithm;
  }

  @Override
  public long windowMicros() {
    return windowMicros;
  }

  @Override
  public String toString() {
    return ruleId + "/" + algorithm + "/" + windowMicros + "µs";
  }
}
