package dev.sluice.store.redis;

import dev.sluice.metrics.RoundTrips;
import dev.sluice.support.Daemons;
import dev.sluice.support.Failures;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.logging.Logger;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.JedisCluster;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisException;

/**
 * Coalesces the script calls of concurrent requests onto a few connections as pipelines: one round
 * trip then carries as many decisions as arrived meanwhile, which is what lifts throughput from one
 * round trip per request toward Redis's own ceiling, and cuts what each decision costs this JVM's
 * kernel (a write and a read of a socket, a thread woken) and Redis (a script run). Each call is
 * exactly as correct as if it were sent alone (a script is atomic; a pipeline is just many of them
 * on one connection).
 *
 * <p>Callers send their own calls, taking turns ({@link Relay}): a caller that finds a turn free
 * sends at once, on its own thread, everything waiting; one that finds every turn taken waits, and
 * goes in the next round trip, led by one of the waiting callers. No call crosses to another thread
 * and back on its way. Sender threads send only what is queued without a caller waiting on it in
 * the relay: refunds, a handover's charges, calls sent again by text after NOSCRIPT.
 *
 * <p>Calls of {@code acquire.lua} for the same keys (one identity, the same rules) that wait in the
 * same batch become one run of the script, which decides them in order: on a hot key that is one
 * script for dozens of decisions.
 *
 * <p>A decision waits for Redis within its budget, one deadline from its start for all its calls:
 * a round trip reads within the latest budget of the calls it carries, at least half a timeout, and
 * a caller waits until the round trip carrying its call ends, so an answer that came while this JVM
 * did not run the reader or the caller is still used. A queued call still waiting when its caller
 * gave up is never sent, since it would count a request already decided locally. A call sent but
 * not answered in time fails for its caller and is never sent again: it may still run and count,
 * erring toward the limit. Each master's {@link Breaker} hears how Redis answered each round trip
 * ({@link PipelineRoundTrip}), not whether its callers still waited.
 */
final class Pipeliner implements AutoCloseable {
  private static final int MAX_BATCH = 256;
  private static final int QUEUE = 65_536;

  private final Failures failures = new Failures(Logger.getLogger("dev.sluice.store.redis"));

  private final UnifiedJedis redis;
  private final long timeoutNanos;
  private final BlockingQueue<PendingCall> queue = new ArrayBlockingQueue<>(QUEUE);

  /**
   * Whether calls of different identities may share a script run: not on Redis Cluster, where they
   * live on different slots.
   */
  private final boolean bundles;

  /** The callers' calls, which they send themselves, taking turns. */
  private final Relay relay;

  private final Thread[] senders;

  /**
   * On Redis Cluster, the threads that send and read a pipeline's calls to each master when it
   * spans several, one task per master; Jedis would otherwise start new ones for every such
   * pipeline. Null on a server without cluster slots.
   */
  private final ExecutorService nodeReaders;

  /** On Redis Cluster, follows what a master answers MOVED or ASK to; null elsewhere. */
  private final Redirects redirects;

  private final RoundTrips roundTrips;

  private volatile boolean closed;

  /**
   * @param senders threads that send what is queued for them ({@link #submit}, calls sent again)
   * @param turns round trips of callers in flight at once
   * @param roundTrips hears how each round trip went
   */
  Pipeliner(UnifiedJedis redis, long timeoutMillis, int senders, int turns, RoundTrips roundTrips) {
    this.redis = redis;
    this.roundTrips = roundTrips;
    this.timeoutNanos = TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
    this.relay = new Relay(turns, this::lead);
    this.bundles = !(redis instanceof JedisCluster);
    this.nodeReaders = redis instanceof JedisCluster ? nodeReaders(turns + senders) : null;
    this.redirects = redis instanceof ClusterClient ? ((ClusterClient) redis).redirects() : null;
    this.senders = new Thread[senders];
    for (int i = 0; i < senders; i++) {
      this.senders[i] = Daemons.start("sluice-redis-pipeline-" + i, this::sendQueued);
    }
  }

  /**
   * At most two threads for each pipeline that can be in flight at once ({@code pipelines}), made
   * as pipelines need them and ended after a minute idle: enough for every pipeline to progress,
   * however many masters it spans, and never a thread per request, which a flood could otherwise
   * make. A task beyond them waits for one; a task refused (the store is closing) runs on the
   * caller, since Jedis waits for every task it handed over and would otherwise wait forever.
   */
  private static ExecutorService nodeReaders(int pipelines) {
    ThreadPoolExecutor readers =
        new ThreadPoolExecutor(
            2 * pipelines,
            2 * pipelines,
            1,
            TimeUnit.MINUTES,
            new LinkedBlockingQueue<Runnable>(),
            Daemons.numbered("sluice-redis-node-reader-"),
            (task, pool) -> task.run());
    readers.allowCoreThreadTimeOut(true);
    return readers;
  }

  /**
   * Runs {@code script}, batched with whatever else is waiting; throws on failure or once {@code
   * deadline} ({@link System#nanoTime}, the decision's, shared by all its calls) has passed. {@code
   * master} is the breaker of the master holding {@code keys}.
   */
  Object run(Script script, Breaker master, List<String> keys, List<String> args, long deadline) {
    return run(
        new PendingCall(script, master, keys, args, deadline),
        Collections.<PendingCall>emptyList(),
        deadline);
  }

  /**
   * Runs {@code call} as {@link #run(Script, Breaker, List, List, long)} does, and the calls of
   * {@code alongside} (made with the same {@code deadline}) in the same round trip, which carries
   * them all. Returns {@code call}'s reply; collect each other one with {@link #await} by the same
   * deadline (they are dropped unsent once it has passed: nobody waits for them any longer).
   */
  Object run(PendingCall call, List<PendingCall> alongside, long deadline) {
    call.riders = alongside;
    relay.await(call);
    return await(call.result, deadline);
  }

  /**
   * A caller's round trip in the {@link Relay}: {@code batch} and whatever the senders' queue holds,
   * read within the latest budget of its calls, and at least half a timeout: a batch whose callers'
   * budgets are spent was held up by this JVM, and Redis gets a fair time to answer it.
   */
  private void lead(List<PendingCall> batch, Runnable replied) {
    long deadline = System.nanoTime() + timeoutNanos / 2;
    for (PendingCall call : batch) {
      deadline = call.deadline() - deadline > 0 ? call.deadline() : deadline;
    }
    Budget.within(deadline, () -> send(batch, replied));
  }

  /**
   * Queues a call for the senders without waiting for it, so one caller can fill pipelines with
   * many calls (a handover does); collect its reply with {@link #await} by the same {@code
   * deadline}, past which it is not sent. {@code args} must be mutable.
   */
  CompletableFuture<Object> submit(
      Script script, Breaker master, List<String> keys, List<String> args, long deadline) {
    PendingCall call = new PendingCall(script, master, keys, args, deadline);
    enqueue(call);
    return call.result;
  }

  /** When a call submitted now must have been answered: the decision budget from now. */
  long deadlineFromNow() {
    return System.nanoTime() + timeoutNanos;
  }

  /** The reply of a submitted call, waited for until {@code deadline} ({@link System#nanoTime}). */
  Object await(Future<?> reply, long deadline) {
    try {
      return reply.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      throw new JedisException("no answer from Redis within the decision budget");
    } catch (ExecutionException e) {
      throw e.getCause() instanceof JedisException
          ? (JedisException) e.getCause()
          : new JedisException(e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new JedisException("interrupted while waiting for Redis");
    }
  }

  private void enqueue(PendingCall call) {
    if (!queue.offer(call)) {
      JedisException full = new JedisException("Sluice's queue of Redis calls is full");
      call.fail(full);
      call.master.failed(full);
    }
  }

  /**
   * A sender thread: sends what is queued for the senders. It outlives any failure:
   * without it, queued calls would wait out their budgets for nothing.
   */
  private void sendQueued() {
    while (!closed || !queue.isEmpty()) {
      PendingCall first;
      try {
        first = queue.poll(100, TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        return;
      }
      if (first == null) {
        continue;
      }
      List<PendingCall> batch = new ArrayList<>(Math.min(MAX_BATCH, 1 + queue.size()));
      batch.add(first);
      try {
        send(batch, () -> {});
      } catch (Throwable t) {
        PendingCall.failUnanswered(batch, t);
        failures.log("Sluice could not send calls to Redis; they are decided locally", t);
      }
    }
  }

  /**
   * Sends {@code batch} and whatever else waits in the senders' queue as one pipeline; calls whose
   * callers stopped waiting are dropped unsent.
   */
  private void send(List<PendingCall> batch, Runnable replied) {
    queue.drainTo(batch, Math.max(0, MAX_BATCH - batch.size()));
    long now = System.nanoTime();
    for (Iterator<PendingCall> it = batch.iterator(); it.hasNext(); ) {
      PendingCall call = it.next();
      if (call.expired(now)) {
        call.fail(new Budget.Expired());
        it.remove();
      }
    }
    if (!batch.isEmpty()) {
      PipelineRoundTrip.run(
          this::open,
          CallMerger.sends(batch, bundles),
          this::enqueue,
          redirects,
          roundTrips,
          replied);
    }
  }

  /**
   * A pipeline on the client; on Redis Cluster, one whose masters' replies the node readers read.
   */
  private AbstractPipeline open() {
    return nodeReaders == null ? redis.pipelined() : ((JedisCluster) redis).pipelined(nodeReaders);
  }

  /**
   * Stops the senders once what is queued (refunds, say) is sent, or dropped where its caller
   * stopped waiting: interrupting one mid-sync would make Jedis log an error at every shutdown or
   * reload. A sender notices within its 100 ms poll.
   */
  @Override
  public void close() {
    closed = true;
    for (Thread sender : senders) {
      try {
        sender.join(1_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    if (nodeReaders != null) {
      nodeReaders.shutdown();
    }
  }
}
