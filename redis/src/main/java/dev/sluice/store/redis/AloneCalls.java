package dev.sluice.store.redis;

import dev.sluice.store.Permit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import redis.clients.jedis.exceptions.JedisException;

/**
 * The permits of one decision that are each decided as if acquired alone (a shadow rule's): what
 * the decision's other permits get changes nothing for them, and they change nothing for those.
 * Each is a call of its own, since acquire.lua takes a call's keys all or none, but they add no
 * round trip and no wait: they go in the pipeline of the decision's first call to Redis (on a
 * server without cluster slots, in its very script run), or, where the decision sends none, in one
 * pipeline of their own, and the decision's one deadline bounds them all. Otherwise each is decided
 * exactly as a decision of that permit alone would be: denied here while Redis's last denial of its
 * key stands ({@link LocalDenials}), by its breaker's pass, and locally ({@link LocalShare}) where
 * Redis cannot answer in time.
 */
final class AloneCalls {
  private final RedisStore store;

  /** The permits Redis's last denials do not deny already. */
  private final List<Alone> calls;

  /** Set once the calls went to a pipeline, or were decided locally: they go once. */
  private boolean dispatched;

  private ConnectedClient client;
  private long deadline;

  AloneCalls(RedisStore store, List<Permit> permits) {
    this.store = store;
    String[] keys = store.keysOf(permits);
    calls = new ArrayList<>(keys.length);
    for (int i = 0; i < keys.length; i++) {
      if (!store.denials.deny(keys[i], permits.get(i))) {
        calls.add(new Alone(IdentityCall.alone(permits.get(i), keys[i])));
      }
    }
  }

  /**
   * The calls to send with the decision's call about to go to {@code current}, the first time it
   * asks; nothing after. Calls whose breaker is open are decided locally at once.
   */
  List<PendingCall> along(ConnectedClient current, long deadline) {
    if (dispatched) {
      return Collections.emptyList();
    }
    dispatched = true;
    this.client = current;
    this.deadline = deadline;
    List<PendingCall> going = new ArrayList<>(calls.size());
    for (Alone alone : calls) {
      IdentityCall call = alone.call;
      alone.breaker = store.breakers.of(call.keys.get(0));
      alone.pass = store.pass(current, alone.breaker, call.permits);
      if (alone.pass == Breaker.Pass.LOCAL) {
        store.share.acquire(call.permits, call.keys);
      } else {
        alone.sent =
            new PendingCall(
                Script.ACQUIRE,
                alone.breaker,
                call.keys,
                call.acquireArgs(store.time.arg()),
                deadline);
        going.add(alone.sent);
      }
    }
    return going;
  }

  /**
   * Fills every permit's verdict: sends the calls now if no call of the decision carried them, then
   * waits for their replies, until the decision's deadline at most.
   */
  void decide() {
    if (!dispatched && !sendByThemselves()) {
      return;
    }
    for (Alone alone : calls) {
      if (alone.sent == null) {
        continue;
      }
      boolean answered = false;
      try {
        alone.call.fill(client.pipeliner.await(alone.sent.result, deadline));
        answered = true;
      } catch (JedisException e) {
        store.share.acquire(alone.call.permits, alone.call.keys);
      } finally {
        alone.end(answered);
      }
      if (answered && !alone.call.allowed()) {
        alone.call.rememberDenials(store.denials);
      }
    }
  }

  /**
   * Ends, as failed, each probe not ended yet: called on every way out of the decision, even on a
   * throwable nobody expected, since a breaker left probing would never close.
   */
  void endProbes() {
    for (Alone alone : calls) {
      alone.end(false);
    }
  }

  /**
   * Sends the calls in one round trip, with the budget of a decision from now; false if there is no
   * client to send them on, and they were decided locally.
   */
  private boolean sendByThemselves() {
    ConnectedClient current = store.client();
    if (current == null) {
      dispatched = true;
      for (Alone alone : calls) {
        store.share.acquire(alone.call.permits, alone.call.keys);
      }
      return false;
    }
    List<PendingCall> going = along(current, current.pipeliner.deadlineFromNow());
    if (!going.isEmpty()) {
      try {
        current.pipeliner.run(going.get(0), going.subList(1, going.size()), deadline);
      } catch (JedisException e) {
        // The first call's failure is its own: each call's reply, or failure, is read in decide.
      }
    }
    return true;
  }

  /** One permit's call, and what its breaker let it do. */
  private static final class Alone {
    final IdentityCall call;
    Breaker breaker;
    Breaker.Pass pass;

    /** The call as sent; null unless Redis is asked. */
    PendingCall sent;

    Alone(IdentityCall call) {
      this.call = call;
    }

    /** Ends the probe this call is, if it is one and was not ended yet. */
    void end(boolean answered) {
      if (pass != null) {
        breaker.callEnded(pass, answered);
        pass = null;
      }
    }
  }
}
