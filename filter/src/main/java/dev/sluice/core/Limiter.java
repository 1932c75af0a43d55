package dev.sluice.core;

import dev.sluice.store.Counters;
import dev.sluice.store.Permit;
import dev.sluice.store.Store;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Decides one request: match the rules, work out each matched rule's identity, take a permit from
 * every enforcing rule at once (all or nothing), and report the most restrictive rule. Shadow rules
 * are counted on their own and never deny. Rules can be swapped at any time; a swap keeps the
 * counters of rules whose id, algorithm and window did not change.
 */
public final class Limiter {
  private static final Logger LOG = Logger.getLogger("dev.sluice.core");

  private final Store store;
  private volatile Bound bound = new Bound(Rules.NONE, new Counters[0]);
  private Counters[] previous = new Counters[0];

  public Limiter(Store store) {
    this.store = store;
  }

  /**
   * Puts {@code rules} in force for every request from now on. The counters of rules that disappear
   * are kept until the next apply: a file caught half-written drops rules for a moment, and they
   * must come back with their counts.
   */
  public synchronized void apply(Rules rules) {
    Counters[] counters = new Counters[rules.rules().size()];
    for (int i = 0; i < counters.length; i++) {
      Rule rule = rules.rules().get(i);
      counters[i] = store.counters(rule.id(), rule.algorithm(), rule.quota().windowMicros());
    }
    bound = new Bound(rules, counters);
    List<Counters> kept = new ArrayList<>(Arrays.asList(counters));
    kept.addAll(Arrays.asList(previous));
    store.retainOnly(kept);
    previous = counters;
  }

  public Rules rules() {
    return bound.rules;
  }

  public Decision decide(RequestView request) {
    Bound b = bound;
    List<Rule> rules = b.rules.rules();
    if (rules.isEmpty()) {
      return Decision.UNLIMITED;
    }
    String[] segments = RequestPath.segments(request.path());
    if (b.rules.isExcluded(segments)) {
      return Decision.UNLIMITED;
    }
    String method = request.method();
    Subject subject = null;
    List<Permit> enforced = Collections.emptyList();
    List<Permit> shadowed = Collections.emptyList();
    for (int i = 0; i < rules.size(); i++) {
      Rule rule = rules.get(i);
      if (!rule.matches(method, segments)) {
        continue;
      }
      if (subject == null) {
        subject = new Subject(request, b.rules);
      }
      String identity = rule.key().identityOf(subject);
      if (identity == null) {
        continue;
      }
      Permit permit =
          new Permit(b.counters[i], identity, rule.quotaFor(subject), rule.cost(), rule.onError());
      if (rule.shadow()) {
        shadowed = add(shadowed, permit, rules.size());
      } else {
        enforced = add(enforced, permit, rules.size());
      }
    }
    if (!enforced.isEmpty()) {
      store.acquire(enforced);
    }
    for (Permit permit : shadowed) {
      store.acquire(Collections.singletonList(permit));
      if (!permit.verdict().allowed() && LOG.isLoggable(Level.FINE)) {
        // The rule, not the identity: identities carry API keys, and logs travel far.
        LOG.fine("shadow rule " + permit.counters().ruleId() + " would deny a request");
      }
    }
    return mostRestrictive(enforced, shadowed);
  }

  private static List<Permit> add(List<Permit> permits, Permit permit, int capacity) {
    List<Permit> list = permits.isEmpty() ? new ArrayList<Permit>(capacity) : permits;
    list.add(permit);
    return list;
  }

  private static Decision mostRestrictive(List<Permit> enforced, List<Permit> shadowed) {
    Permit denying = null;
    for (Permit p : enforced) {
      if (!p.verdict().allowed()
          && (denying == null
              || p.verdict().retryAfterMicros() > denying.verdict().retryAfterMicros())) {
        denying = p;
      }
    }
    if (denying != null) {
      return Decision.of(denying, false);
    }
    Permit tightest = null;
    for (List<Permit> permits : Arrays.asList(enforced, shadowed)) {
      for (Permit p : permits) {
        if (tightest == null || p.verdict().remaining() < tightest.verdict().remaining()) {
          tightest = p;
        }
      }
    }
    return tightest == null ? Decision.UNLIMITED : Decision.of(tightest, true);
  }

  /** Rules with the counters bound to them, index for index. */
  private static final class Bound {
    final Rules rules;
    final Counters[] counters;

    Bound(Rules rules, Counters[] counters) {
      this.rules = rules;
      this.counters = counters;
    }
  }
}
