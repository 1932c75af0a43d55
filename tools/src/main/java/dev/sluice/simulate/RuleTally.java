package dev.sluice.simulate;

import dev.sluice.core.Rule;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * What one rule did to the replayed requests it counted, in all and per identity.
 *
 * <p>An identity's figures for every rule are one flat {@code long[]} in one map ({@link Replay}):
 * rules of the same key make the same identity, so a line costs one lookup and touches one array,
 * not an object per rule. That lookup is most of what a replay adds to the decisions themselves.
 */
final class RuleTally {
  /**
   * The memory the identities followed one by one may take; beyond {@link #maxIdentities} requests
   * are only counted in all, so a log of junk API keys cannot fill the heap, whatever the rules.
   */
  static final long IDENTITY_BYTES = 256L << 20;

  /** Longs per rule in an identity's figures: requests, denied, peak, second, in that second. */
  static final int STRIDE = 5;

  /** What an identity followed takes beside its figures: its name, its map entry, array headers. */
  private static final int IDENTITY_OVERHEAD_BYTES = 128;

  private static final int DENIED = 1;
  private static final int PEAK = 2;
  private static final int SECOND = 3;
  private static final int IN_SECOND = 4;

  final Rule rule;
  private final int at;
  long matched;
  long denied;

  /** Requests the rule's delay would hold until their slot, and their waits together. */
  long delayed;

  long delayMicros;
  private long identities;
  private long untracked;
  private String peakIdentity;
  private long peak;

  RuleTally(Rule rule, int index) {
    this.rule = rule;
    this.at = index * STRIDE;
  }

  /**
   * How many identities {@link #IDENTITY_BYTES} holds when each has figures for {@code rules}
   * rules: 932,067 for 4 rules, 126,144 for 50.
   */
  static int maxIdentities(int rules) {
    return (int) (IDENTITY_BYTES / (IDENTITY_OVERHEAD_BYTES + 8L * STRIDE * rules));
  }

  /** One allowed request this rule's delay would hold {@code micros} until its slot. */
  void delayed(long micros) {
    delayed++;
    delayMicros += micros;
  }

  /** The mean wait of the {@link #delayed} requests, in milliseconds; 0 when none. */
  long meanDelayMillis() {
    return delayed == 0 ? 0 : delayMicros / delayed / 1_000;
  }

  /**
   * One request of {@code identity} in {@code second}, which the rule would deny or not; {@code
   * figures} are the identity's for every rule, or null beyond {@link #maxIdentities}.
   */
  void count(long[] figures, String identity, long second, boolean wouldDeny) {
    matched++;
    if (wouldDeny) {
      denied++;
    }
    if (figures == null) {
      untracked++;
      return;
    }
    if (figures[at]++ == 0) {
      identities++;
      figures[at + SECOND] = Long.MIN_VALUE;
    }
    if (wouldDeny) {
      figures[at + DENIED]++;
    }
    if (figures[at + SECOND] != second) {
      figures[at + SECOND] = second;
      figures[at + IN_SECOND] = 0;
    }
    long inSecond = ++figures[at + IN_SECOND];
    if (inSecond > figures[at + PEAK]) {
      figures[at + PEAK] = inSecond;
      if (inSecond > peak) {
        peak = inSecond;
        peakIdentity = identity;
      }
    }
  }

  /** Distinct identities counted, at most {@link #maxIdentities}. */
  long identities() {
    return identities;
  }

  /** Requests of identities beyond {@link #maxIdentities}, counted in all only. */
  long untracked() {
    return untracked;
  }

  /** The identity that sent the most requests in one second, or null if none was counted. */
  Seen peak(Map<String, long[]> all) {
    return peakIdentity == null ? null : seen(peakIdentity, all.get(peakIdentity));
  }

  /** The {@code n} identities of {@code all} with the most would-be denials, most first. */
  List<Seen> top(Map<String, long[]> all, int n) {
    List<Seen> limited = new ArrayList<>();
    for (Map.Entry<String, long[]> identity : all.entrySet()) {
      if (identity.getValue()[at + DENIED] > 0) {
        limited.add(seen(identity.getKey(), identity.getValue()));
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

  private Seen seen(String identity, long[] figures) {
    return new Seen(identity, figures[at], figures[at + DENIED], figures[at + PEAK]);
  }

  /**
   * One identity's requests to the rule. Its peak is the most it sent in one second of the log: a
   * log's times have whole seconds, so no finer rate can be read from it, and per second compares
   * across rules of any window.
   */
  static final class Seen {
    final String identity;
    final long requests;
    final long denied;
    final long peak;

    Seen(String identity, long requests, long denied, long peak) {
      this.identity = identity;
      this.requests = requests;
      this.denied = denied;
      this.peak = peak;
    }
  }
}
