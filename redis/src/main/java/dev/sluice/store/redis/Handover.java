package dev.sluice.store.redis;

import dev.sluice.store.redis.LocalLedger.Owed;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Future;
import redis.clients.jedis.exceptions.JedisException;

/**
 * Ends an outage without a burst. While Redis could not answer, this JVM admitted its share of
 * fail_open limits locally and Redis counted none of it; sharing limits again at once would let the
 * fleet admit those shares plus the whole limit in the window of the switch. So the probe that
 * finds Redis back first charges what {@link LocalLedger} remembers for current windows, through
 * acquire.lua with a limit no count reaches (counted, never refused), one call per key in
 * pipelines; only then does the breaker close. Requests keep deciding locally meanwhile, since the
 * breaker stays open until its probe ends.
 *
 * <p>A failure is a failed probe: the breaker stays open and waits longer, and what Redis did not
 * confirm stays owed. A call that timed out may still have counted, so it may be charged twice:
 * erring toward the limit, never past it.
 */
final class Handover {
  /**
   * Far beyond any count or bucket a {@code Quota} allows (its tolerance is capped at 2^62), and
   * exact as a Lua double, so a forced charge is always admitted and adds exactly its cost.
   */
  static final long UNREACHABLE = 1L << 62;

  /** Calls in flight at once: a few pipelines' worth, far from filling the Pipeliner's queue. */
  private static final int CHUNK = 1_024;

  private final LocalLedger ledger;
  private final ShardBreakers breakers;

  Handover(LocalLedger ledger, ShardBreakers breakers) {
    this.ledger = ledger;
    this.breakers = breakers;
  }

  /**
   * Charges what is owed for current windows, then ends the probe of {@code probing}, the breaker
   * whose probe this is (null for none). Keys of other masters whose breakers are open stay owed
   * until their own probe. With every breaker closed already, this charges what was admitted
   * locally around the switch.
   *
   * <p>Only Redis's answer closes a breaker: one whose master was sent nothing (what it was owed
   * ended meanwhile) has its probe released for a request to make; a failure of any kind, even a
   * throwable nobody expected, is a failed probe, since a breaker left probing would never close.
   */
  synchronized void run(Pipeliner pipeliner, String time, Breaker probing) {
    boolean ended = false;
    try {
      int confirmed = chargeDue(pipeliner, time, probing);
      if (probing != null && confirmed > 0) {
        probing.probeSucceeded(confirmed);
        chargeWhatTheSwitchAdmitted(pipeliner, time);
      } else if (probing != null) {
        probing.releaseProbe();
      }
      ended = true;
    } catch (RuntimeException e) {
      // A failed probe, below; what Redis did not confirm stays owed.
    } finally {
      if (!ended && probing != null) {
        probing.probeFailed();
      }
    }
  }

  /** Charges what is owed to masters that answer, {@code probing}'s too; returns its confirmed. */
  private int chargeDue(Pipeliner pipeliner, String time, Breaker probing) {
    List<Owed> due = ledger.due();
    due.removeIf(owed -> breakers.unreachable(owed.key, probing));
    int confirmed = 0;
    for (int from = 0; from < due.size(); from += CHUNK) {
      confirmed +=
          charge(pipeliner, time, due.subList(from, Math.min(due.size(), from + CHUNK)), probing);
    }
    return confirmed;
  }

  /**
   * Charges at once, not at the next round of maintenance, what requests admitted locally while
   * the probe's charge ran: the request that started the probe is one of them. A second later a
   * short window they counted in may be over, and they would never be charged at all, while the
   * fleet's first decisions from Redis in that window did not see them (the fleet simulation's
   * switch windows). A failure leaves them owed for that round; the breaker is closed already.
   */
  private void chargeWhatTheSwitchAdmitted(Pipeliner pipeliner, String time) {
    try {
      chargeDue(pipeliner, time, null);
    } catch (RuntimeException e) {
      // Still owed: the next round of maintenance charges what of it still counts.
    }
  }

  /** Whether anything admitted locally is owed to the master behind {@code master}. */
  boolean owes(Breaker master) {
    return ledger.owes(key -> breakers.of(key) == master);
  }

  /**
   * Sends a chunk as one burst of calls, keeps what Redis confirmed, then reports any failure;
   * returns how many calls the master behind {@code probing} confirmed.
   */
  private int charge(Pipeliner pipeliner, String time, List<Owed> chunk, Breaker probing) {
    long deadline = pipeliner.deadlineFromNow();
    List<Future<Object>> replies = new ArrayList<>(chunk.size());
    List<Breaker> masters = new ArrayList<>(chunk.size());
    for (Owed owed : chunk) {
      Breaker master = breakers.of(owed.key);
      masters.add(master);
      replies.add(
          pipeliner.submit(
              Script.ACQUIRE,
              master,
              Collections.singletonList(owed.key),
              args(owed, time),
              deadline));
    }
    JedisException failure = null;
    int confirmed = 0;
    for (int i = 0; i < chunk.size(); i++) {
      try {
        pipeliner.await(replies.get(i), deadline);
        ledger.charged(chunk.get(i));
        confirmed += masters.get(i) == probing ? 1 : 0;
      } catch (JedisException e) {
        failure = failure == null ? e : failure;
      }
    }
    if (failure != null) {
      throw failure;
    }
    return confirmed;
  }

  /**
   * ARGV of acquire.lua for one forced request: fixed and sliding windows add the cost to the
   * current count, the token bucket moves its TAT by cost × emission from max(TAT, now).
   */
  static List<String> args(Owed owed, String time) {
    List<String> args = IdentityCall.oneRequest(time, 1);
    IdentityCall.addKey(
        args, IdentityCall.terms(owed.code, UNREACHABLE, UNREACHABLE, owed.quota), owed.cost);
    return args;
  }
}
