package dev.sluice.simulate;

import dev.sluice.core.Rule;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** What one rule did to the replayed requests it counted, in all and per identity. */
final class RuleTally {
  /**
   * Identities followed one by one per rule; beyond them requests are only counted in all, so a log
   * of junk API keys cannot fill the heap.
   */
  static final int MAX_IDENTITIES = 1_000_000;

  final Rule rule;
  long matched;
  long denied;
  private final Map<String, Seen> identities = new HashMap<>();
  private long untracked;
  private Seen peak;

  RuleTally(Rule rule) {
    this.rule = rule;
  }

  /** One request of {@code identity} in {@code second}, which the rule would deny or not. */
  void count(String identity, long second, boolean wouldDeny) {
    matched++;
    if (wouldDeny) {
      denied++;
    }
    Seen seen = identities.get(identity);
    if (seen == null) {
      if (identities.size() >= MAX_IDENTITIES) {
        untracked++;
        return;
      }
      seen = new Seen(identity);
      identities.put(identity, seen);
    }
    seen.count(second, wouldDeny);
    if (peak == null || seen.peak > peak.peak) {
      peak = seen;
    }
  }

  /** Distinct identities counted (at most {@link #MAX_IDENTITIES}). */
  int identities() {
    return identities.size();
  }

  /** Requests of identities beyond {@link #MAX_IDENTITIES}, counted in all only. */
  long untracked() {
    return untracked;
  }

  /** The identity with the most requests in one second, or null if none was counted. */
  Seen peak() {
    return peak;
  }

  /** The {@code n} identities with the most would-be denials, most first. */
  List<Seen> top(int n) {
    List<Seen> limited = new ArrayList<>();
    for (Seen seen : identities.values()) {
      if (seen.denied > 0) {
        limited.add(seen);
      }
    }
    Collections.sort(
        limited,
        (a, b) ->
            a.denied != b.denied
                ? Long.compare(b.denied, a.denied)
                : a.identity.compareTo(b.identity));
    return limited.subList(0, Math.min(n, limited.size()));
  }

  /**
   * One identity's requests. Its peak is the most it sent in one second of the log: a log's times
   * have whole seconds, so no finer rate can be read from it, and per second compares across rules
   * of any window.
   */
  static final class Seen {
    final String identity;
    long requests;
    long denied;
    long peak;
    private long second = Long.MIN_VALUE;
    private long inSecond;

    Seen(String identity) {
      this.identity = identity;
    }

    void count(long now, boolean wouldDeny) {
      requests++;
      if (wouldDeny) {
        denied++;
      }
      if (now != second) {
        second = now;
        inSecond = 0;
      }
      peak = Math.max(peak, ++inSecond);
    }
  }
}
