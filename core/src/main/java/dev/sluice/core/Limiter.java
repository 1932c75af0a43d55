package dev.sluice.core;

import dev.sluice.metrics.Metrics;
import dev.sluice.metrics.RuleCounters;
import dev.sluice.store.Counters;
import dev.sluice.store.Permit;
import dev.sluice.store.Store;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Decides one request: match the rules, work out each matched rule's identity, take a permit from
 * every enforcing rule at once (all or nothing), and report every matched rule's verdict. Shadow
 * rules are counted each on its own, as if alone, whatever the enforcing rules decide, and never
 * deny; the store decides them with the enforcing rules, in one decision. Rules can be swapped at
 * any time; a swap keeps the counters of rules whose id, algorithm and window did not change. The
 * store can be swapped too, with the rules, and counts start over in the new one.
 */
public final class Limiter {
  private static final Logger LOG = Logger.getLogger("dev.sluice.core");

  private volatile Bound bound;
  private Counters[] previous = new Counters[0];

  /** Null when nothing is counted beyond the limits themselves. */
  private final Metrics metrics;

  /** A limiter that counts nothing beyond its limits. */
  public Limiter(Store store) {
    this(store, null);
  }

  /** A limiter that counts in {@code metrics} what each rule decides, and reports its store. */
  public Limiter(Store store, Metrics metrics) {
    this.metrics = metrics;
    this.bound = new Bound(Rules.NONE, store, new Counters[0], null);
    if (metrics != null) {
      metrics.bindStore(store::status);
    }
  }

  /**
   * Puts {@code rules} in force for every request from now on. The counters of rules that disappear
   * are kept until the next apply: a file caught half-written drops rules for a moment, and they
   * must come back with their counts.
   */
  public synchronized void apply(Rules rules) {
    bind(rules, bound.store);
  }

  /**
   * Puts {@code rules} in force over {@code next} for every request from now on and returns the
   * store it replaces. Decisions that began before may still be using that one, so the caller
   * closes it only once they are done.
   */
  public synchronized Store switchTo(Store next, Rules rules) {
    Store replaced = bound.store;
    previous = new Counters[0]; // counters of another store: nothing to come back to
    bind(rules, next);
    if (metrics != null) {
      metrics.bindStore(next::status);
    }
    return replaced;
  }

  private void bind(Rules rules, Store store) {
    Counters[] counters = new Counters[rules.rules().size()];
    List<String> ids = new ArrayList<>(counters.length);
    Set<String> shadow = new HashSet<>();
    Map<String, Long> localFirst = new HashMap<>();
    for (int i = 0; i < counters.length; i++) {
      Rule rule = rules.rules().get(i);
      counters[i] =
          store.counters(
              rule.id(), rule.algorithm(), rule.quota().windowMicros(), rule.consistency());
      ids.add(rule.id());
      if (rule.shadow()) {
        shadow.add(rule.id());
      } else if (!rule.consistency().isExact()) {
        localFirst.put(rule.id(), rule.consistency().syncMicros());
      }
    }
    RuleCounters[] counted = null;
    if (metrics != null) {
      counted = metrics.bindRules(ids);
      metrics.inShadow(shadow);
      metrics.localFirst(localFirst);
    }
    bound = new Bound(rules, store, counters, counted);
    List<Counters> kept = new ArrayList<>(Arrays.asList(counters));
    kept.addAll(Arrays.asList(previous));
    store.retainOnly(kept);
    previous = counters;
  }

  public Rules rules() {
    return bound.rules;
  }

  /** The store the rules in force count in. */
  public Store store() {
    return bound.store;
  }

  public Decision decide(RequestView request) {
    return decide(request, Phase.ALL);
  }

  /** Decides {@code request} by the rules of {@code phase} alone (see {@link Phase}). */
  public Decision decide(RequestView request, Phase phase) {
    Bound b = bound;
    RequestMatch match = new RequestMatch(b.rules, request);
    Permit[] byRule = match.skipped() == null ? match.permits(b.counters, phase) : null;
    if (byRule == null) {
      return Decision.UNLIMITED;
    }
    List<Rule> rules = b.rules.rules();
    List<Permit> enforced = Collections.emptyList();
    List<Permit> shadowed = Collections.emptyList();
    for (int i = 0; i < byRule.length; i++) {
      if (byRule[i] == null) {
        continue;
      }
      if (rules.get(i).shadow()) {
        shadowed = add(shadowed, byRule[i], rules.size());
      } else {
        enforced = add(enforced, byRule[i], rules.size());
      }
    }
    if (shadowed.isEmpty()) {
      b.store.acquire(enforced);
    } else {
      // One decision: a shared store asks for the shadow rules in the enforced ones' round trip.
      b.store.acquire(enforced, shadowed);
    }
    for (Permit permit : shadowed) {
      if (!permit.verdict().allowed() && LOG.isLoggable(Level.FINE)) {
        // The rule, not the identity: identities carry API keys, and logs travel far.
        LOG.fine("shadow rule " + permit.counters().ruleId() + " would deny a request");
      }
    }
    Decision decision = Decision.of(b.rules, byRule);
    if (b.counted != null) {
      Outcomes.count(b.counted, decision);
    }
    return decision;
  }

  /**
   * The allowed {@code decision} begins to wait for the slot its rule {@code i} reserved: counted
   * as waiting now until the returned wait ends, if the rules it was decided by are still in force.
   */
  public Waiting waiting(Decision decision, int i) {
    Bound b = bound;
    return b.counted != null && b.rules == decision.rules()
        ? new Waiting(b.counted[i])
        : Waiting.UNCOUNTED;
  }

  /**
   * Denies the allowed {@code decision} after all, by its rule {@code i}, retry after {@code
   * retryAfterMicros}: a delayed request that will not wait for its slot. Gives back what it took,
   * as far as not refilled, and counts it as that rule's denial, in every counter still bound to a
   * rule in force (see {@link #giveBack(Decision)}).
   */
  public Decision turnAway(Decision decision, int i, long retryAfterMicros) {
    Bound b = bound;
    Permit turned = decision.permit(i);
    for (Permit p : giveBack(b, decision)) {
      int r = b.indexOf(p.counters());
      if (b.counted != null) {
        b.counted[r].countTurnedAway(p == turned ? p.identity() : null);
      }
    }
    return decision.turnedAway(i, retryAfterMicros);
  }

  /**
   * Gives back what the allowed {@code decision}'s enforcing rules took, as far as not refilled: a
   * request held at entry that its rules after login deny. See {@link #turnAway}.
   */
  public void giveBack(Decision decision) {
    giveBack(bound, decision);
  }

  /**
   * Refunds the takes of {@code decision} whose counters {@code b} still binds, and returns them.
   * By counters, not by rules: a reload that keeps a rule keeps its counters, and its takes are
   * given back; a rule changed or dropped since, or a store switched, has other counters, and what
   * was taken from the old ones stands.
   */
  private static List<Permit> giveBack(Bound b, Decision decision) {
    List<Permit> bound = new ArrayList<>();
    for (Permit p : decision.taken()) {
      if (b.indexOf(p.counters()) >= 0) {
        bound.add(p);
      }
    }
    if (!bound.isEmpty()) {
      b.store.refund(bound);
    }
    return bound;
  }

  /**
   * What the rules in force make of {@code request}, rule by rule, with what the store would decide
   * now for each rule that counts it, alone: read as {@link #decide} reads it, but nothing is
   * taken, and nothing counted in the metrics. A store that cannot answer is an {@link
   * Explanation.Entry#error}, not an exception.
   */
  public Explanation explain(RequestView request) {
    Bound b = bound;
    RequestMatch match = new RequestMatch(b.rules, request);
    if (match.skipped() != null) {
      return Explanation.skipped(match.skipped());
    }
    Permit[] byRule = match.permits(b.counters);
    return Explanation.of(b.rules, match, byRule, peek(b.store, byRule));
  }

  /**
   * Peeks the verdict of every permit in {@code byRule}; returns why the store could not, or null.
   */
  private static String peek(Store store, Permit[] byRule) {
    List<Permit> permits = new ArrayList<>();
    for (int i = 0; byRule != null && i < byRule.length; i++) {
      if (byRule[i] != null) {
        permits.add(byRule[i]);
      }
    }
    try {
      if (!permits.isEmpty()) {
        store.peek(permits);
      }
      return null;
    } catch (RuntimeException e) {
      return e.toString();
    }
  }

  /** Adds to a list of the request's permits: most requests have one, and need no more. */
  private static List<Permit> add(List<Permit> permits, Permit permit, int capacity) {
    if (permits.isEmpty()) {
      return Collections.singletonList(permit);
    }
    List<Permit> list = permits;
    if (permits.size() == 1) {
      list = new ArrayList<>(capacity);
      list.add(permits.get(0));
    }
    list.add(permit);
    return list;
  }

  /** Rules with the store's counters and the metrics' bound to them, index for index. */
  private static final class Bound {
    final Rules rules;
    final Store store;
    final Counters[] counters;

    /** Null when nothing is counted. */
    final RuleCounters[] counted;

    Bound(Rules rules, Store store, Counters[] counters, RuleCounters[] counted) {
      this.rules = rules;
      this.store = store;
      this.counters = counters;
      this.counted = counted;
    }

    /** The index of the rule bound to {@code c}, or -1 when no rule in force counts in it. */
    int indexOf(Counters c) {
      for (int i = 0; i < counters.length; i++) {
        if (counters[i] == c) {
          return i;
        }
      }
      return -1;
    }
  }
}
