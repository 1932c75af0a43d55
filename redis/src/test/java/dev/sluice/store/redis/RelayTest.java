package dev.sluice.store.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.store.ManualClock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/**
 * Who sends the callers' calls, and with what: the turn-taking alone, with round trips that answer
 * every call at once (its use with a real Redis is in the it-tests' PipelinerIT). Deadlines are
 * either far ahead or already past, so nothing here waits for time to pass.
 */
class RelayTest {
  private static final long FAR = TimeUnit.HOURS.toNanos(1);

  private final Breaker breaker = new Breaker(new ManualClock(0), "test");

  /** What each round trip carried, and on which thread. */
  private final List<List<PendingCall>> batches = new CopyOnWriteArrayList<>();

  private final List<String> threads = new CopyOnWriteArrayList<>();

  /** Holds the next round trip, if set, until counted down. */
  private volatile CountDownLatch gate;

  private final Relay relay =
      new Relay(
          1,
          (batch, replied) -> {
            threads.add(Thread.currentThread().getName());
            batches.add(new ArrayList<>(batch));
            CountDownLatch held = gate;
            gate = null;
            if (held != null) {
              await(held);
            }
            replied.run();
            for (PendingCall call : batch) {
              call.complete(Collections.singletonList(1L));
            }
          });

  @Test
  void aLoneCallerSendsItsOwnCallOnItsOwnThreadAtOnce() throws Exception {
    PendingCall call = call(FAR);
    relay.await(call);
    assertThat(call.result.get()).isEqualTo(Collections.singletonList(1L));
    assertThat(threads).containsExactly(Thread.currentThread().getName());
  }

  @Test
  void callersArrivingWhileTheRoundTripIsOutAllGoInTheNextOneLedByOneOfThem() throws Exception {
    gate = new CountDownLatch(1);
    CountDownLatch released = gate;
    PendingCall first = call(FAR);
    CompletableFuture<Void> leader = waitOnThread(first, "caller-0");
    awaitTrue(() -> batches.size() == 1);
    List<PendingCall> later = new ArrayList<>();
    List<Thread> callers = new ArrayList<>();
    for (int i = 1; i <= 3; i++) {
      PendingCall call = call(FAR);
      later.add(call);
      Thread caller = new Thread(() -> relay.await(call), "caller-" + i);
      callers.add(caller);
      caller.start();
    }
    for (Thread caller : callers) {
      awaitTrue(() -> caller.getState() == Thread.State.TIMED_WAITING); // parked, waiting its turn
    }
    released.countDown();
    leader.get(5, TimeUnit.SECONDS);
    for (Thread caller : callers) {
      caller.join(5_000);
    }
    assertThat(batches).hasSize(2);
    assertThat(batches.get(1)).containsExactlyInAnyOrderElementsOf(later);
    assertThat(threads.get(1)).isIn("caller-1", "caller-2", "caller-3");
    for (PendingCall call : later) {
      assertThat(call.result).isCompleted();
    }
  }

  /**
   * Every round trip before it ends within its own budget, so a call still unsent past its caller's
   * deadline was held up by this JVM: its caller sends it rather than have it decided locally.
   */
  @Test
  void aCallUnsentPastItsDeadlineIsSentByItsCallerThoughTheTurnIsTaken() throws Exception {
    gate = new CountDownLatch(1);
    CountDownLatch released = gate;
    CompletableFuture<Void> leader = waitOnThread(call(FAR), "caller-0");
    awaitTrue(() -> batches.size() == 1);
    PendingCall late = call(-1);
    relay.await(late); // the first round trip is still out
    assertThat(late.result.get()).isEqualTo(Collections.singletonList(1L));
    assertThat(batches).hasSize(2);
    assertThat(batches.get(1)).containsExactly(late);
    assertThat(leader).isNotDone();
    released.countDown();
    leader.get(5, TimeUnit.SECONDS);
  }

  /**
   * A leader reads its own call's answer: it must not wake itself, since a wake-up left pending on
   * its thread would end the container's next wait on that thread (an idle worker's) at once, for
   * one more turn of its loop.
   */
  @Test
  void aLeaderLeavesNoWakeUpPendingOnItsOwnThread() {
    relay.await(call(FAR));
    long parked = System.nanoTime();
    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
    assertThat(System.nanoTime() - parked).isGreaterThan(TimeUnit.MILLISECONDS.toNanos(25));
  }

  @Test
  void aRoundTripThatThrowsFailsEveryCallItCarriedAndHandsTheTurnOn() throws Exception {
    PendingCall rider = call(FAR);
    PendingCall call = call(FAR);
    call.riders = Collections.singletonList(rider);
    Relay failing =
        new Relay(
            1,
            (batch, replied) -> {
              throw new IllegalStateException("a bug");
            });
    failing.await(call);
    assertThatThrownBy(() -> call.result.get()).hasRootCauseMessage("a bug");
    assertThatThrownBy(() -> rider.result.get()).hasRootCauseMessage("a bug");
    PendingCall next = call(FAR);
    relay.await(next);
    assertThat(next.result).isCompleted();
  }

  /**
   * A leader gives its turn back once the replies are read, before it hands them out (waking each
   * caller): the next round trip goes to Redis meanwhile. Held until the hand-out ended, one turn
   * left Redis idle through it and the next leader's wake-up, and RedisLoad lost 20-27 % of its
   * decisions a second on 64 threads (issue 29).
   */
  @Test
  void theNextRoundTripLeavesWhileALeaderStillHandsOutItsReplies() throws Exception {
    CountDownLatch handingOut = new CountDownLatch(1);
    CountDownLatch nextSent = new CountDownLatch(1);
    AtomicBoolean firstHandedOut = new AtomicBoolean();
    AtomicBoolean sentDuringTheHandOut = new AtomicBoolean();
    Relay handing =
        new Relay(
            1,
            (batch, replied) -> {
              boolean first = handingOut.getCount() == 1;
              if (!first) {
                sentDuringTheHandOut.set(!firstHandedOut.get());
                nextSent.countDown();
              }
              replied.run();
              if (first) {
                handingOut.countDown();
                await(nextSent);
              }
              for (PendingCall call : batch) {
                call.complete(Collections.singletonList(1L));
              }
              firstHandedOut.compareAndSet(false, first);
            });
    CompletableFuture<Void> leader = new CompletableFuture<>();
    new Thread(
            () -> {
              handing.await(call(FAR));
              leader.complete(null);
            },
            "caller-0")
        .start();
    await(handingOut);
    PendingCall next = call(FAR);
    handing.await(next);
    leader.get(5, TimeUnit.SECONDS);
    assertThat(next.result).isCompleted();
    assertThat(sentDuringTheHandOut).isTrue();
  }

  private static void await(CountDownLatch latch) {
    try {
      latch.await(2, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private PendingCall call(long deadlineFromNow) {
    return new PendingCall(
        Script.ACQUIRE,
        breaker,
        Collections.singletonList("k"),
        new ArrayList<>(Collections.singletonList("0")),
        System.nanoTime() + deadlineFromNow);
  }

  private CompletableFuture<Void> waitOnThread(PendingCall call, String name) {
    CompletableFuture<Void> done = new CompletableFuture<>();
    Thread thread =
        new Thread(
            () -> {
              relay.await(call);
              done.complete(null);
            },
            name);
    thread.start();
    return done;
  }

  private static void awaitTrue(BooleanSupplier condition) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("never happened within 5 s");
      }
      LockSupport.parkNanos(100_000);
    }
  }
}
