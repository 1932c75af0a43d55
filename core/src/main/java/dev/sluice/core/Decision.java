package dev.sluice.core;

import dev.sluice.algo.Verdict;
import dev.sluice.store.Permit;
import java.util.ArrayList;
import java.util.List;

/**
 * The answer for one request, with the verdict of every rule that counted it. One of them decides:
 * when denied, the denying rule that asks for the longest wait; when allowed, the rule with the
 * fewest permits left (an enforcing rule before a shadow one with as few). Times are whole seconds,
 * rounded up, as the headers carry them.
 */
public final class Decision {
  /** No rule applies: allowed, and no rate-limit headers. */
  public static final Decision UNLIMITED = new Decision(true, Rules.NONE, new Permit[0], -1);

  private final boolean allowed;
  private final Rules rules;
  private final Permit[] permits;
  private final int deciding;
  private final long resetSeconds;
  private final long retryAfterSeconds;

  private Decision(boolean allowed, Rules rules, Permit[] permits, int deciding) {
    this.allowed = allowed;
    this.rules = rules;
    this.permits = permits;
    this.deciding = deciding;
    if (deciding < 0) {
      resetSeconds = retryAfterSeconds = 0;
      return;
    }
    Verdict v = permits[deciding].verdict();
    // A shadow rule's denial may decide an allowed request: the request waits for nothing.
    retryAfterSeconds = allowed ? 0 : retryAfterSeconds(v);
    resetSeconds = resetSeconds(v, retryAfterSeconds);
  }

  /** The wait of {@code v} in whole seconds: 0 when allowed, else at least 1. */
  static long retryAfterSeconds(Verdict v) {
    return v.allowed() ? 0 : Math.max(1, seconds(v.retryAfterMicros()));
  }

  /** Whole seconds until {@code v}'s quota is fully restored, never less than the wait told. */
  static long resetSeconds(Verdict v, long retryAfterSeconds) {
    // A store's verdict may put the reset before the retry (a Redis script, a fail_closed denial):
    // a client must never read that its quota is back before it may retry.
    return Math.max(seconds(v.resetMicros()), retryAfterSeconds);
  }

  /**
   * The decision on the verdicts in {@code permits}, which holds for rule {@code i} of {@code
   * rules} the permit it took, or null where it did not count the request.
   */
  static Decision of(Rules rules, Permit[] permits) {
    for (int i = 0; i < permits.length; i++) {
      if (permits[i] != null && !permits[i].verdict().decided()) {
        permits[i] = null; // a rule the store did not get to: it knows nothing of this request
      }
    }
    int denying = -1;
    for (int i = 0; i < permits.length; i++) {
      Permit p = permits[i];
      if (p != null
          && !rules.rules().get(i).shadow()
          && !p.verdict().allowed()
          && (denying < 0 || retryAfter(p) > retryAfter(permits[denying]))) {
        denying = i;
      }
    }
    if (denying >= 0) {
      return new Decision(false, rules, permits, denying);
    }
    int tightest = -1;
    for (int i = 0; i < permits.length; i++) {
      if (permits[i] != null && (tightest < 0 || tighter(rules, permits, i, tightest))) {
        tightest = i;
      }
    }
    return new Decision(true, rules, permits, tightest);
  }

  /** Fewer permits left, or as few and enforcing where the other is a shadow. */
  private static boolean tighter(Rules rules, Permit[] permits, int i, int than) {
    long left = remaining(permits[i]);
    long other = remaining(permits[than]);
    return left < other
        || (left == other && rules.rules().get(than).shadow() && !rules.rules().get(i).shadow());
  }

  private static long retryAfter(Permit p) {
    return p.verdict().retryAfterMicros();
  }

  /** What the client may still send at once: a delay's places in the queue are told apart. */
  private static long remaining(Permit p) {
    return p.decidedUnder().promptRemaining(p.verdict());
  }

  /**
   * When allowed, the enforcing rule with a delay whose slot for this request is furthest away (see
   * {@link dev.sluice.algo.Quota#delayed}); -1 when the request passes at once. Where no rule in
   * force has a delay (found once per reload), that is known without looking at the permits.
   */
  public int delaying() {
    int delaying = -1;
    long longest = 0;
    for (int i = 0; allowed && rules.delays() && i < permits.length; i++) {
      Permit p = permits[i];
      long wait =
          p == null || rules.rules().get(i).shadow() ? 0 : p.decidedUnder().waitMicros(p.verdict());
      if (wait > longest) {
        delaying = i;
        longest = wait;
      }
    }
    return delaying;
  }

  /** When allowed, how long the request waits for its slot: 0 when it passes at once. */
  public long waitMicros() {
    int i = delaying();
    return i < 0 ? 0 : permits[i].decidedUnder().waitMicros(permits[i].verdict());
  }

  /** The permits the enforcing rules took for this allowed request: what a refund gives back. */
  List<Permit> taken() {
    List<Permit> taken = new ArrayList<>();
    for (int i = 0; allowed && i < permits.length; i++) {
      if (permits[i] != null && !rules.rules().get(i).shadow()) {
        taken.add(permits[i]);
      }
    }
    return taken;
  }

  /**
   * This allowed request denied by rule {@code i} after all, the client told to retry after {@code
   * retryAfterMicros}: it could not wait for its slot. Its takes must have been refunded first.
   */
  public Decision turnedAway(int i, long retryAfterMicros) {
    Verdict v = permits[i].verdict();
    v.set(false, 0, v.resetMicros(), retryAfterMicros);
    return of(rules, permits);
  }

  /** Whole seconds, rounded up: a client that waits them has waited long enough. */
  public static long seconds(long micros) {
    return (micros + 999_999) / 1_000_000;
  }

  public boolean allowed() {
    return allowed;
  }

  /** The rules in force when this was decided. */
  public Rules rules() {
    return rules;
  }

  /** The deciding rule, or null when no rule applies. */
  public Rule rule() {
    return deciding < 0 ? null : rules.rules().get(deciding);
  }

  /** The id of the deciding rule, or null when no rule applies. */
  public String ruleId() {
    return deciding < 0 ? null : rule().id();
  }

  /**
   * The permit rule {@code i} of {@link #rules} took for this request, its verdict filled; null
   * when that rule did not count it, or the store did not decide it.
   */
  public Permit permit(int i) {
    return i < permits.length ? permits[i] : null;
  }

  /** True when rule {@code i} of {@link #rules} is one of those that denied this request. */
  public boolean deniedBy(int i) {
    Permit p = permit(i);
    return !allowed && p != null && !p.verdict().allowed() && !rules.rules().get(i).shadow();
  }

  /**
   * The permits rule {@code i} of {@link #rules} has left. A denied request takes nothing from any
   * rule (all or nothing), so an enforcing rule that would have allowed it still has what its
   * verdict counted as taken.
   */
  public long remaining(int i) {
    Permit p = permits[i];
    long left = remaining(p);
    return !allowed && p.verdict().allowed() && !rules.rules().get(i).shadow()
        ? left + p.cost()
        : left;
  }

  /** The deciding rule's limit (for the request's tier). */
  public long limit() {
    return deciding < 0 ? 0 : permits[deciding].quota().limit();
  }

  /** {@link #limit} in decimal, without making a string per response. */
  public String limitText() {
    return deciding < 0 ? "0" : permits[deciding].quota().limitText();
  }

  public long remaining() {
    return deciding < 0 ? 0 : remaining(permits[deciding]);
  }

  /**
   * The places left in the deciding rule's queue (its {@code delay}): requests that would wait for a
   * slot now, beyond {@link #remaining}; -1 when that rule has no delay.
   */
  public long queueRemaining() {
    if (deciding < 0 || !permits[deciding].decidedUnder().isDelayed()) {
      return -1;
    }
    Permit p = permits[deciding];
    return p.decidedUnder().queueRemaining(p.verdict());
  }

  /**
   * Seconds until the deciding rule's quota is fully restored, if nothing else arrives; when
   * denied, never less than {@link #retryAfterSeconds}.
   */
  public long resetSeconds() {
    return resetSeconds;
  }

  /** When denied, whole seconds to wait, at least 1; else 0. */
  public long retryAfterSeconds() {
    return retryAfterSeconds;
  }

  @Override
  public String toString() {
    return deciding < 0
        ? "unlimited"
        : (allowed ? "allowed by " : "denied by ")
            + ruleId()
            + " limit="
            + limit()
            + " remaining="
            + remaining()
            + " reset="
            + resetSeconds
            + "s retryAfter="
            + retryAfterSeconds
            + "s";
  }
}
