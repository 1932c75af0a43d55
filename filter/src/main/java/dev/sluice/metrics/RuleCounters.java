package dev.sluice.metrics;

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
  private final String ruleId;
  private final LongAdder allowed = new LongAdder();
  private final LongAdder denied = new LongAdder();
  private final LongAdder shadowDenied = new LongAdder();
  private final LongAdder decidedLocally = new LongAdder();
  private final LongAdder deniedLocally = new LongAdder();
  private volatile TopLimited top;

  RuleCounters(String ruleId, TopLimited top) {
    this.ruleId = ruleId;
    this.top = top;
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

  String ruleId() {
    return ruleId;
  }

  /** Follows a new {@code top_clients}: the sketch starts over at its new size. */
  void topClients(int capacity, LongSupplier micros) {
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

  List<LimitedClient> topLimited(boolean raw) {
    return top.top(raw);
  }

  RuleStats stats(boolean raw) {
    return new RuleStats(
        ruleId,
        allowed(),
        denied(),
        shadowDenied(),
        decidedLocally(),
        deniedLocally(),
        topLimited(raw));
  }
}
