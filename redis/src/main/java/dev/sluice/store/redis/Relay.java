package dev.sluice.store.redis;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BiConsumer;

/**
 * The callers' calls, and who sends them: the callers themselves, taking turns. A caller that finds
 * fewer than {@code turns} round trips in flight leads one: it takes every call waiting (its own
 * among them), sends them as one pipeline on its own thread and reads the replies, handing each
 * waiting caller its own. A caller that finds them all taken waits; once a round trip's replies are
 * read, before they are handed out, its leader gives the turn back and wakes the caller at the head
 * of the queue, which leads the next with everything that arrived meanwhile: Redis works on that
 * one while the verdicts of the last are handed out, which with one turn it would otherwise wait
 * through (issue 29). So a lone request sends its own call at once, with no thread hand-off, and
 * concurrent ones merge into the next round trip (same-key calls into one script run) instead of
 * each paying its own: the fewer round trips in flight, the fuller each is.
 *
 * <p>A caller waits for its call until the round trip that carries it ends, not until its deadline:
 * that round trip reads within the budget of the calls it carries, so a Redis that does not answer
 * still fails them in time, while an answer that came in while this JVM did not run the reader or
 * the caller (a GC pause, a saturated CPU) is still read and used. A call still waiting to be sent
 * when its deadline passes was held up by this JVM, not by Redis (every round trip before it ended
 * within its own budget, or it would have been failed): its caller then leads one itself, beyond
 * {@code turns}, whose read is given half a timeout at least.
 */
final class Relay {
  /** A leader sends at most this many of the callers' calls in one round trip. */
  static final int MAX_BATCH = 256;

  private final ConcurrentLinkedQueue<PendingCall> waiting = new ConcurrentLinkedQueue<>();
  private final AtomicInteger leading = new AtomicInteger();
  private final int turns;

  /** Sends a batch as one round trip, completing or failing every call in it. */
  private final BiConsumer<List<PendingCall>, Runnable> send;

  /**
   * @param turns round trips of callers in flight at once
   * @param send sends one batch as one round trip, and runs the given hand-on once its replies are
   *     read, before it hands them out; every call in it must end answered or failed
   */
  Relay(int turns, BiConsumer<List<PendingCall>, Runnable> send) {
    this.turns = turns;
    this.send = send;
  }

  /** Queues {@code call} (with its riders) and waits until it is answered or failed. */
  void await(PendingCall call) {
    call.waiter = Thread.currentThread();
    waiting.add(call);
    while (!call.result.isDone()) {
      if (call.drained) {
        // On its way (or queued for a sender, after NOSCRIPT): woken when it is answered.
        LockSupport.parkNanos(this, TimeUnit.MILLISECONDS.toNanos(100));
        continue;
      }
      if (take()) {
        lead();
        continue;
      }
      long now = System.nanoTime();
      if (call.overdue(now)) {
        // This JVM held the call up, not Redis: send it now rather than decide it locally.
        leading.incrementAndGet();
        lead();
        continue;
      }
      LockSupport.parkNanos(this, call.deadline() - now);
    }
  }

  private boolean take() {
    int now;
    while ((now = leading.get()) < turns) {
      if (leading.compareAndSet(now, now + 1)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Sends what waits as one round trip, holding a turn taken; hands the lead on once the replies
   * are read (or the round trip failed), before the leader hands them out. Every turn ends here,
   * and wakes the head of the queue if anything waits, so a waiting call always has a leader
   * coming: the head is a caller whose call is not yet taken, parked in {@link #await}, or about to
   * take a turn itself (a caller queues its call before it looks for a free turn, and a leader
   * gives its turn back before it looks at the queue).
   */
  private void lead() {
    List<PendingCall> batch = new ArrayList<>();
    HandOn handOn = new HandOn();
    try {
      PendingCall next;
      while (batch.size() < MAX_BATCH && (next = waiting.poll()) != null) {
        next.drained = true;
        batch.add(next);
        batch.addAll(next.riders);
      }
      if (!batch.isEmpty()) {
        send.accept(batch, handOn);
      }
    } catch (RuntimeException | Error e) {
      // A caller waits until its call ends: never leave one unanswered.
      PendingCall.failUnanswered(batch, e);
      if (e instanceof Error) {
        throw (Error) e;
      }
    } finally {
      handOn.run();
    }
  }

  /** Gives the turn back and wakes the head of the queue, once. */
  private final class HandOn implements Runnable {
    private boolean done;

    @Override
    public void run() {
      if (done) {
        return;
      }
      done = true;
      leading.decrementAndGet();
      if (!waiting.isEmpty()) {
        wakeHead();
      }
    }
  }

  private void wakeHead() {
    PendingCall head = waiting.peek();
    if (head != null) {
      LockSupport.unpark(head.waiter);
    }
  }
}
