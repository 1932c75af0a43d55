package dev.sluice.metrics;

import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

/**
 * What one rule decided, counted on the request path. Each outcome is a {@link LongAdder}: threads
 * deciding at once add to cells of their own instead of fighting over one word, and reading (rare)
 * pays for the sum. Denials also feed the rule's {@link TopLimited}. Bound to a rule id by {@link
 * Metrics}, so a reload that keeps a rule keeps its counts.
 */
public final class RuleCounters {
  private static final long TOP_REUSED_MICROS = 1_000_000;

  private final String ruleId;
  private final LongAdder allowed = new LongAdder();
  private final LongAdder denied = new LongAdder();
  private final LongAdder shadowDenied = new LongAdder();
  private final LongAdder decidedLocally = new LongAdder();
  private final LongAdder deniedLocally = new LongAdder();
  private final LongAdder delayed = new LongAdder();
  private final LongAdder delayMicros = new LongAdder();
  private final LongAdder waiting = new LongAdder();
  private final LongSupplier micros;
  private final LongAdder topListsWorkedOut;
  private volatile TopLimited top;
  private volatile TopList recent;

  /**
   * @param topClients how many clients the top list follows
   * @param topListsWorkedOut counts each time the top list is worked out
   */
  RuleCounters(String ruleId, int topClients, LongSupplier micros, LongAdder topListsWorkedOut) {
    this.ruleId = ruleId;
    this.micros = micros;
    this.topListsWorkedOut = topListsWorkedOut;
    this.top = new TopLimited(topClients, micros);
  }

  /** A request this rule let through, counted once the whole request was admitted. */
  public void countAllowed() {
    allowed.increment();
  }

  /** A request this rule denied, from the client {@code identity}. */
  public void countDenied(String identity) {
    denied.increment();
    top.record(identity);
  }

  /** A request this shadow rule would have denied: it went through. */
  public void countShadowDenied(String identity) {
    shadowDenied.increment();
    top.record(identity);
  }

  /**
   * A fail_open decision taken in this JVM, on its share of the limit, as Redis could not answer.
   */
  public void countDecidedLocally() {
    decidedLocally.increment();
  }

  /** A fail_closed denial, as Redis could not answer. */
  public void countDeniedLocally() {
    deniedLocally.increment();
  }

  /** A request begins to wait for the slot this rule's delay reserved. */
  public void countWaiting() {
    waiting.increment();
  }

  /**
   * A request this rule's delay held for {@code micros} until its slot (counted as allowed): it
   * waits no more.
   */
  public void countDelayed(long micros) {
    delayed.increment();
    delayMicros.add(micros);
    waiting.decrement();
  }

  /** A request stopped waiting before its slot, and is not served. */
  public void countLeftWaiting() {
    waiting.decrement();
  }

  /**
   * A request counted as allowed that was denied after all: it found no place to wait for its slot,
   * or its wait was interrupted. {@code identity} is the client when this rule is the one that
   * denied it, else null: then the rule only takes back its count.
   */
  public void countTurnedAway(String identity) {
    allowed.decrement();
    if (identity != null) {
      countDenied(identity);
    }
  }

  String ruleId() {
    return ruleId;
  }

  /** Follows a new {@code top_clients}: the sketch starts over at its new size. */
  void topClients(int capacity) {
    if (top.capacity() != capacity) {
      top = new TopLimited(capacity, micros);
    }
  }

  long allowed() {
    return allowed.sum();
  }

  long denied() {
    return denied.sum();
  }

  long shadowDenied() {
    return shadowDenied.sum();
  }

  long decidedLocally() {
    return decidedLocally.sum();
  }

  long deniedLocally() {
    return deniedLocally.sum();
  }

  /**
   * The top list, as worked out less than {@link #TOP_REUSED_MICROS} ago if it was: a status
   * request, a scrape and a JMX read each want it, and however many come, the sketches are merged
   * and the identities hashed at most once a second. The list lags the denials by at most that
   * second; the counts beside it never do.
   */
  List<LimitedClient> topLimited(boolean raw) {
    TopLimited from = top;
    TopList last = recent;
    long now = micros.getAsLong();
    if (last != null
        && last.from == from
        && last.raw == raw
        && now - last.atMicros >= 0
        && now - last.atMicros < TOP_REUSED_MICROS) {
      return last.clients;
    }
    List<LimitedClient> clients = Collections.unmodifiableList(from.top(raw));
    topListsWorkedOut.increment();
    recent = new TopList(from, raw, now, clients);
    return clients;
  }

  RuleStats stats(boolean raw) {
    return new RuleStats(
        ruleId,
        allowed(),
        denied(),
        shadowDenied(),
        decidedLocally(),
        deniedLocally(),
        delayed.sum(),
        delayMicros.sum(),
        waiting.sum(),
        () -> topLimited(raw));
  }

  /** A top list as worked out from {@code from} at {@code atMicros}. */
  private static final class TopList {
    final TopLimited from;
    final boolean raw;
    final long atMicros;
    final List<LimitedClient> clients;

    TopList(TopLimited from, boolean raw, long atMicros, List<LimitedClient> clients) {
      this.from = from;
      this.raw = raw;
      this.atMicros = atMicros;
      this.clients = clients;
    }
  }
}
