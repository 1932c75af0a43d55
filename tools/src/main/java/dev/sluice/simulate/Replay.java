package dev.sluice.simulate;

import dev.sluice.core.Decision;
import dev.sluice.core.Limiter;
import dev.sluice.core.Rule;
import dev.sluice.core.Rules;
import dev.sluice.simulate.RuleTally.Seen;
import dev.sluice.store.Clock;
import dev.sluice.store.MemoryStore;
import dev.sluice.store.Permit;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.Reader;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Drives the real {@link Limiter} over a {@link MemoryStore} through a log, one {@code decide} per
 * line, on a clock that reads the log's time: a request the rules deny takes nothing, exactly as
 * live, so it counts against no later decision. Nothing sleeps; a week of log replays as fast as
 * its lines parse and decide.
 *
 * <p>The log's time only moves forward: a line logged a little out of order (a log writes a request
 * when it ends, not when it began) is replayed at the latest time seen and counted, since a store's
 * clock never steps back either.
 */
final class Replay {
  /** Skipped lines shown by number and reason; the rest are only counted. */
  static final int SKIPS_SHOWN = 5;

  /** Live, idle keys are swept every second; replayed seconds fly by, so sweep by lines instead. */
  private static final long SWEEP_EVERY_LINES = 1_000_000;

  /** Near a rule's key budget, a sweep changes decisions (overflow slot); sweep often there. */
  private static final long SWEEP_NEAR_BUDGET_EVERY_LINES = 1_000;

  private final AccessLogFormat format;
  private final ReplayClock clock = new ReplayClock();
  private final MemoryStore store;
  private final Limiter limiter;
  private final long sweepAbove;
  private final RuleTally[] tallies;
  private final Map<String, long[]> identities = new HashMap<>();

  /** Identities followed one by one, fewer the more rules there are ({@link RuleTally}). */
  final int maxIdentities;

  long lines;
  long denied;
  long shadowDenied;
  long outOfOrder;
  long mostBehind;
  long firstSecond = Long.MIN_VALUE;
  long latestSecond = Long.MIN_VALUE;
  long skipped;
  final List<Skip> skips = new ArrayList<>();
  long nanos;
  private long decided;
  private long sweptAt;

  Replay(Rules rules, long maxKeys, AccessLogFormat format) {
    this.format = format;
    this.store = new MemoryStore(clock, maxKeys, 0); // swept here, in replayed time
    this.limiter = new Limiter(store);
    limiter.apply(rules);
    this.sweepAbove = maxKeys / 2;
    this.tallies = new RuleTally[rules.rules().size()];
    for (int i = 0; i < tallies.length; i++) {
      tallies[i] = new RuleTally(rules.rules().get(i), i);
    }
    this.maxIdentities = RuleTally.maxIdentities(tallies.length);
  }

  /**
   * Replays every line of {@code log}, read ({@link LogLines}) and parsed on a thread of its own
   * ({@link LogFeed}); returns what the rules asked of requests that the log does not carry.
   */
  Set<String> run(Reader log) throws IOException {
    long start = System.nanoTime();
    Set<String> notLogged = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);
    try (LogFeed feed = new LogFeed(new LogLines(log), format, notLogged)) {
      for (LogFeed.Batch batch = feed.next(); ; batch = feed.next()) {
        for (int i = 0; i < batch.size; i++) {
          replay(batch.requests[i]);
        }
        if (batch.last) {
          break;
        }
        feed.recycle(batch);
      }
      lines = feed.lines;
      skipped = feed.skipped;
      skips.addAll(feed.skips);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("replay interrupted");
    } finally {
      store.close();
    }
    nanos = System.nanoTime() - start;
    return notLogged;
  }

  private void replay(LoggedRequest request) {
    decided++;
    advanceTo(request.epochSecond);
    Decision decision = limiter.decide(request);
    if (decision != Decision.UNLIMITED) {
      tally(decision);
    }
  }

  RuleTally[] tallies() {
    return tallies;
  }

  /** The {@code n} identities {@code tally}'s rule would have denied most, most first. */
  List<Seen> top(RuleTally tally, int n) {
    return tally.top(identities, n);
  }

  /** The identity that sent {@code tally}'s rule the most requests in one second, or null. */
  Seen peak(RuleTally tally) {
    return tally.peak(identities);
  }

  private void advanceTo(long second) {
    if (firstSecond == Long.MIN_VALUE) {
      firstSecond = second;
    }
    if (second < latestSecond) {
      outOfOrder++;
      mostBehind = Math.max(mostBehind, latestSecond - second);
    } else if (second > latestSecond) {
      latestSecond = second;
      clock.micros = second * 1_000_000;
      long sinceSweep = decided - sweptAt;
      if (sinceSweep >= SWEEP_EVERY_LINES
          || (sinceSweep >= SWEEP_NEAR_BUDGET_EVERY_LINES && store.keyCount() > sweepAbove)) {
        store.sweep();
        sweptAt = decided;
      }
    }
  }

  private void tally(Decision decision) {
    if (!decision.allowed()) {
      denied++;
    }
    boolean shadowDenies = false;
    List<Rule> rules = decision.rules().rules();
    String identity = null;
    long[] figures = null;
    for (int i = 0; i < tallies.length; i++) {
      Permit permit = decision.permit(i);
      if (permit == null) {
        continue;
      }
      boolean shadow = rules.get(i).shadow();
      boolean wouldDeny = shadow ? !permit.verdict().allowed() : decision.deniedBy(i);
      shadowDenies |= shadow && wouldDeny;
      if (!permit.identity().equals(identity)) {
        identity = permit.identity();
        figures = figures(identity);
      }
      tallies[i].count(figures, identity, latestSecond, wouldDeny);
    }
    if (shadowDenies) {
      shadowDenied++;
    }
    int delaying = decision.delaying();
    if (delaying >= 0) {
      // The log's clock has whole seconds: a second's requests arrive together, and queue.
      tallies[delaying].delayed(decision.waitMicros());
    }
  }

  /** The figures of {@code identity} for each rule, or null beyond the identities followed. */
  private long[] figures(String identity) {
    long[] figures = identities.get(identity);
    if (figures == null && identities.size() < maxIdentities) {
      figures = new long[tallies.length * RuleTally.STRIDE];
      identities.put(identity, figures);
    }
    return figures;
  }

  /** A line that could not be replayed, and why. */
  static final class Skip {
    final long line;
    final String reason;

    Skip(long line, String reason) {
      this.line = line;
      this.reason = reason;
    }

    @Override
    public String toString() {
      return "line " + line + ": " + reason;
    }
  }

  /** The log's time, as the store reads it. */
  private static final class ReplayClock implements Clock {
    long micros;

    @Override
    public long micros() {
      return micros;
    }
  }
}
