package dev.sluice.store.redis;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.Response;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisException;
import redis.clients.jedis.exceptions.JedisNoScriptException;

/**
 * Coalesces the script calls of concurrent requests onto a few connections as pipelines: one round
 * trip then carries as many decisions as arrived meanwhile, which is what lifts throughput from one
 * round trip per request toward Redis's own ceiling. Each call is exactly as correct as if it were
 * sent alone (a script is atomic; a pipeline is just many of them on one connection).
 *
 * <p>Calls of {@code acquire.lua} for the same keys (one identity, the same rules) that wait in the
 * same batch become one run of the script, which decides them in order: on a hot key that is one
 * script for dozens of decisions.
 *
 * <p>A caller waits at most the decision budget; past it the call counts as failed (and is never
 * sent again: it may still run and count). A full queue fails new calls at once.
 */
final class Pipeliner implements AutoCloseable {
  private static final int MAX_BATCH = 256;
  private static final int QUEUE = 65_536;

  private final UnifiedJedis redis;
  private final long timeoutNanos;
  private final BlockingQueue<Queued> queue = new ArrayBlockingQueue<>(QUEUE);
  private final Thread[] senders;
  private volatile boolean closed;

  Pipeliner(UnifiedJedis redis, long timeoutMillis, int senders) {
    this.redis = redis;
    this.timeoutNanos = TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
    this.senders = new Thread[senders];
    for (int i = 0; i < senders; i++) {
      this.senders[i] = new Thread(this::send, "sluice-redis-pipeline-" + i);
      this.senders[i].setDaemon(true);
      this.senders[i].start();
    }
  }

  /** Runs {@code script}, batched with whatever else is waiting; throws on failure or timeout. */
  Object run(Script script, List<String> keys, List<String> args) {
    long deadline = deadlineFromNow();
    return await(submit(script, keys, args), deadline);
  }

  /**
   * Queues a call without waiting for it, so one caller can fill pipelines with many calls (a
   * handover does); collect its reply with {@link #await}. {@code args} must be mutable.
   */
  Future<Object> submit(Script script, List<String> keys, List<String> args) {
    Queued call = new Queued(script, keys, args);
    if (!queue.offer(call)) {
      throw new JedisException("Sluice's queue of Redis calls is full");
    }
    return call.result;
  }

  /** When a call submitted now must have been answered: the decision budget from now. */
  long deadlineFromNow() {
    return System.nanoTime() + timeoutNanos;
  }

  /** The reply of a submitted call, waited for until {@code deadline} ({@link System#nanoTime}). */
  Object await(Future<Object> reply, long deadline) {
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

  private void send() {
    List<Queued> batch = new ArrayList<>(MAX_BATCH);
    while (!closed) {
      try {
        Queued first = queue.poll(100, TimeUnit.MILLISECONDS);
        if (first == null) {
          continue;
        }
        batch.add(first);
        queue.drainTo(batch, MAX_BATCH - 1);
        pipeline(batch, false);
      } catch (InterruptedException e) {
        return;
      } finally {
        batch.clear();
      }
    }
  }

  /** Sends a batch by SHA-1, then once more by text what a server answered NOSCRIPT to. */
  private void pipeline(List<Queued> batch, boolean byText) {
    List<Queued> sends = byText ? batch : coalesce(batch);
    List<Queued> unknown = new ArrayList<>();
    try (AbstractPipeline pipe = redis.pipelined()) {
      List<Response<Object>> responses = new ArrayList<>(sends.size());
      for (Queued call : sends) {
        responses.add(
            byText
                ? pipe.eval(call.script.text(), call.keys, call.args)
                : pipe.evalsha(call.script.sha1(), call.keys, call.args));
      }
      pipe.sync();
      for (int i = 0; i < sends.size(); i++) {
        try {
          sends.get(i).complete(responses.get(i).get());
        } catch (JedisNoScriptException e) {
          unknown.add(sends.get(i));
        } catch (RuntimeException e) {
          sends.get(i).fail(e);
        }
      }
    } catch (RuntimeException e) {
      for (Queued call : sends) {
        call.fail(e);
      }
    }
    if (!unknown.isEmpty() && !byText) {
      pipeline(unknown, true);
    }
  }

  /** Merges acquire calls for the same keys into one call each; the rest pass as they are. */
  private static List<Queued> coalesce(List<Queued> batch) {
    Map<List<String>, Queued> byKeys = new LinkedHashMap<>();
    List<Queued> sends = new ArrayList<>(batch.size());
    for (Queued call : batch) {
      if (call.script != Script.ACQUIRE) {
        sends.add(call);
        continue;
      }
      Queued first = byKeys.get(call.keys);
      if (first == null) {
        byKeys.put(call.keys, call);
        sends.add(call);
      } else {
        first.absorb(call);
      }
    }
    return sends;
  }

  /**
   * Stops the senders once their current batch is answered: interrupting one mid-sync would make
   * Jedis log an error at every shutdown or reload. A sender notices within its 100 ms poll.
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
  }

  private static final class Queued {
    final Script script;
    final List<String> keys;
    final List<String> args;
    final CompletableFuture<Object> result = new CompletableFuture<>();

    /** Calls merged into this one, each of them one more request in acquire.lua's argument list. */
    private List<Queued> absorbed;

    Queued(Script script, List<String> keys, List<String> args) {
      this.script = script;
      this.keys = keys;
      this.args = args;
    }

    /** Appends {@code other}'s request (its arguments after the time and the count). */
    void absorb(Queued other) {
      if (absorbed == null) {
        absorbed = new ArrayList<>();
      }
      absorbed.add(other);
      args.set(1, Integer.toString(absorbed.size() + 1));
      args.addAll(other.args.subList(2, other.args.size()));
    }

    /** Hands each merged call its own four integers per key. */
    void complete(Object reply) {
      if (absorbed == null) {
        result.complete(reply);
        return;
      }
      List<?> all = (List<?>) reply;
      int each = 4 * keys.size();
      result.complete(all.subList(0, each));
      for (int i = 0; i < absorbed.size(); i++) {
        absorbed.get(i).result.complete(all.subList((i + 1) * each, (i + 2) * each));
      }
    }

    void fail(RuntimeException e) {
      result.completeExceptionally(e);
      if (absorbed != null) {
        for (Queued call : absorbed) {
          call.result.completeExceptionally(e);
        }
      }
    }
  }
}
