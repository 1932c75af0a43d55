package dev.sluice.store.redis;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.LockSupport;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.exceptions.JedisException;

/** One script call waiting in the {@link Pipeliner}, and the calls merged into it. */
final class PendingCall {
  final Script script;

  /**
   * The breaker of the master that holds {@link #keys}: it hears how this call's round trip went.
   */
  final Breaker master;

  final List<String> keys;
  final List<String> args;
  final CompletableFuture<Object> result = new CompletableFuture<>();

  /** What acquire.lua answers where allowed goes for a call it could not decide. */
  private static final Long REFUSED = -1L;

  /**
   * When its caller stops waiting ({@link System#nanoTime}); for calls merged or bundled into this
   * one, the last of theirs. A call nobody waits for any longer is not sent: it could still count.
   */
  private long deadline;

  /** Set once the server answered NOSCRIPT: the call goes once more, as the script's text. */
  boolean byText;

  /**
   * The caller waiting for this call in a {@link Relay}, woken when it is answered; null for a call
   * its caller waits for only until its deadline. A caller in a relay waits until the round trip
   * that carries its call ends, so its call is never dropped as expired.
   */
  volatile Thread waiter;

  /** Calls that go in the same round trip as this one (a decision's shadow rules), or none. */
  List<PendingCall> riders = Collections.emptyList();

  /** Whether a leader of a {@link Relay} took this call out of its queue to send it. */
  volatile boolean drained;

  /** Calls merged into this one, each of them one more request in acquire.lua's argument list. */
  private List<PendingCall> absorbed;

  /** Where the last group of alike requests starts in {@link #args}: its request count. */
  private int lastGroup = IdentityCall.FIRST_GROUP;

  /** The number of groups, and of requests in the last one, as {@link #args} hold them. */
  private int groups = 1;

  private int lastGroupRequests = 1;

  /** The calls of other identities this one carries in one run (see {@link #bundle}). */
  private List<PendingCall> bundled;

  PendingCall(Script script, Breaker master, List<String> keys, List<String> args, long deadline) {
    this.script = script;
    this.master = master;
    this.keys = keys;
    this.args = args;
    this.deadline = deadline;
  }

  /** The later of two {@link System#nanoTime} instants, which may wrap around. */
  private static long later(long a, long b) {
    return a - b > 0 ? a : b;
  }

  /** Whether every caller of this call has stopped waiting for it. */
  boolean expired(long now) {
    return now - deadline >= 0 && !held();
  }

  /** Whether a caller in a {@link Relay} waits for this call, or one merged or bundled into it. */
  private boolean held() {
    return waiter != null || anyHeld(absorbed) || anyHeld(bundled);
  }

  private static boolean anyHeld(List<PendingCall> calls) {
    if (calls != null) {
      for (PendingCall call : calls) {
        if (call.held()) {
          return true;
        }
      }
    }
    return false;
  }

  /** Whether {@code now} is past the deadline its caller gave it, waited for or not. */
  boolean overdue(long now) {
    return now - deadline >= 0;
  }

  /** When its caller's budget ends ({@link System#nanoTime}); for merged calls, the last one's. */
  long deadline() {
    return deadline;
  }

  /**
   * Whether calls for the same keys may merge into this one. Never one re-sent by text: it may hold
   * merged calls already, and a call merged into another call's merged list would go unanswered.
   */
  boolean mergeable() {
    return script == Script.ACQUIRE && !byText && bundled == null;
  }

  /**
   * One run of acquire.lua for the calls of several identities (each possibly merged already), on a
   * server without cluster slots: Redis then pays one script call's overhead for all of them. The
   * calls must share their time argument.
   */
  static PendingCall bundle(List<PendingCall> calls) {
    int keyCount = 0;
    int argCount = 2;
    for (PendingCall call : calls) {
      keyCount += call.keys.size();
      argCount += call.args.size() - IdentityCall.CALLS - 1;
    }
    List<String> keys = new ArrayList<>(keyCount);
    List<String> args = new ArrayList<>(argCount);
    args.add(calls.get(0).args.get(0));
    args.add(Integer.toString(calls.size()));
    for (PendingCall call : calls) {
      keys.addAll(call.keys);
      args.addAll(call.args.subList(IdentityCall.CALLS + 1, call.args.size()));
    }
    long deadline = calls.get(0).deadline;
    for (PendingCall call : calls) {
      deadline = later(deadline, call.deadline);
    }
    PendingCall bundle = new PendingCall(Script.ACQUIRE, calls.get(0).master, keys, args, deadline);
    bundle.bundled = calls;
    return bundle;
  }

  /** How many integers of acquire.lua's reply are this call's: four per key per request. */
  private int replySize() {
    return 4 * keys.size() * (absorbed == null ? 1 : absorbed.size() + 1);
  }

  /**
   * Whether this call is one request of its own, merging none: only such a call may be merged into
   * another, which answers each call it merged with one request's part of the reply.
   */
  boolean alone() {
    return absorbed == null;
  }

  /**
   * Appends {@code other}'s request (a lone call's one group of one); one alike with the last
   * group's (on a hot key, nearly all) only adds one to that group's count.
   */
  void absorb(PendingCall other) {
    if (absorbed == null) {
      absorbed = new ArrayList<>();
    }
    absorbed.add(other);
    deadline = later(deadline, other.deadline);
    List<String> values = other.args.subList(IdentityCall.FIRST_GROUP + 1, other.args.size());
    int end = lastGroup + 1 + values.size();
    if (end == args.size() && args.subList(lastGroup + 1, end).equals(values)) {
      args.set(lastGroup, Integer.toString(++lastGroupRequests));
    } else {
      lastGroup = args.size();
      lastGroupRequests = 1;
      args.add("1");
      args.addAll(values);
      args.set(IdentityCall.GROUPS, Integer.toString(++groups));
    }
  }

  /** Hands each merged call its own four integers per key. */
  void complete(Object reply) {
    if (bundled != null) {
      List<?> all = (List<?>) reply;
      int at = 0;
      for (PendingCall call : bundled) {
        int size = call.replySize();
        call.complete(all.subList(at, at + size));
        at += size;
      }
      return;
    }
    if (absorbed == null) {
      answer(reply);
      return;
    }
    List<?> all = (List<?>) reply;
    int each = 4 * keys.size();
    answer(all.subList(0, each));
    for (int i = 0; i < absorbed.size(); i++) {
      absorbed.get(i).answer(all.subList((i + 1) * each, (i + 2) * each));
    }
  }

  /**
   * Completes {@code result} with one call's part of a reply, or fails it where acquire.lua could
   * not decide the call (-1 where allowed goes: one of its keys holds another type). Redis
   * answered, and wrote nothing of the call, so it is decided locally, and no breaker hears of it.
   */
  private void answer(Object reply) {
    if (refused(reply)) {
      settle(refusal());
    } else {
      result.complete(reply);
      wake();
    }
  }

  /** Fails this call alone (not what it merged or bundled), and wakes its caller. */
  private void settle(RuntimeException e) {
    result.completeExceptionally(e);
    wake();
  }

  /** Wakes this call's caller, unless it is the thread answering it: a leader reads its own. */
  private void wake() {
    Thread caller = waiter;
    if (caller != null && caller != Thread.currentThread()) {
      LockSupport.unpark(caller);
    }
  }

  /** Whether a script answered one call's keys -1 where allowed goes: one holds another type. */
  static boolean refused(Object reply) {
    return reply instanceof List
        && !((List<?>) reply).isEmpty()
        && REFUSED.equals(((List<?>) reply).get(0));
  }

  /** What a {@link #refused} call fails with. */
  static JedisDataException refusal() {
    return new JedisDataException("WRONGTYPE a key of this call holds a value of another type");
  }

  /**
   * Fails the calls of {@code batch} not yet answered, as {@code cause} kept them from being sent:
   * a caller waits until its call ends, so none may be left unanswered.
   */
  static void failUnanswered(List<PendingCall> batch, Throwable cause) {
    JedisException failed = new JedisException("Sluice could not send calls to Redis", cause);
    for (PendingCall call : batch) {
      if (!call.result.isDone()) {
        call.fail(failed);
      }
    }
  }

  void fail(RuntimeException e) {
    if (bundled != null) {
      for (PendingCall call : bundled) {
        call.fail(e);
      }
      return;
    }
    settle(e);
    if (absorbed != null) {
      for (PendingCall call : absorbed) {
        call.settle(e);
      }
    }
  }
}
