package dev.sluice.store.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.it.redis.WithOwnRedisProcess;
import dev.sluice.metrics.RoundTrips;
import dev.sluice.store.Clock;
import java.net.URI;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisPooled;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisException;

/**
 * Which thread sends a call (always a caller, taking turns; a sender only what is queued for the
 * senders), NOSCRIPT on the caller's own pipeline, a timed-out call never sent twice, a call held up
 * by this JVM still answered by Redis, and what the breaker hears: how Redis answered, not whether
 * the caller still waited.
 */
class PipelinerIT extends WithOwnRedisProcess {
  private static final long LIMIT = 1_000;
  private static final AtomicInteger KEYS = new AtomicInteger();

  private final String key = "pipe:{k" + KEYS.incrementAndGet() + "}:t";
  private final Breaker breaker = new Breaker(Clock.SYSTEM, "test");
  private final List<AutoCloseable> closing = new ArrayList<>();

  @AfterEach
  void close() throws Exception {
    redis.resume();
    Collections.reverse(closing);
    for (AutoCloseable c : closing) {
      c.close();
    }
  }

  @Test
  void aCallerWithATurnFreeSendsItsOwnPipeline() {
    Watched client = client(1_000);
    Pipeliner pipeliner = pipeliner(client, 1_000, 2);
    assertThat(remaining(pipeliner)).isEqualTo(LIMIT - 1);
    assertThat(client.senders).containsExactly(Thread.currentThread().getName());
  }

  @Test
  void aCallerFindingEveryTurnTakenWaitsAndSendsTheNextRoundTripItself() throws Exception {
    Watched client = client(1_000);
    Pipeliner pipeliner = pipeliner(client, 5_000, 1);
    CountDownLatch gate = new CountDownLatch(1);
    client.gate = gate;
    CompletableFuture<Long> first = CompletableFuture.supplyAsync(() -> remaining(pipeliner));
    awaitTrue(() -> client.senders.size() == 1); // the first call holds the only lane
    Thread caller = Thread.currentThread();
    Thread opener =
        new Thread(
            () -> {
              awaitTrue(() -> caller.getState() == Thread.State.TIMED_WAITING);
              gate.countDown();
            });
    opener.start();
    long second = remaining(pipeliner);
    assertThat(Arrays.asList(first.get(5, TimeUnit.SECONDS), second))
        .containsExactlyInAnyOrder(LIMIT - 1, LIMIT - 2);
    assertThat(client.senders)
        .as("no hand-off to a sender thread: the waiting caller leads the next round trip")
        .hasSize(2)
        .element(1)
        .isEqualTo(caller.getName());
    opener.join();
  }

  @Test
  void noScriptOnTheCallersOwnPipelineGoesOnceMoreByTextFromASender() {
    Watched client = client(1_000);
    Pipeliner pipeliner = pipeliner(client, 1_000, 2);
    jedis.scriptFlush();
    assertThat(remaining(pipeliner)).as("counted once").isEqualTo(LIMIT - 1);
    assertThat(client.senders).hasSize(2);
    assertThat(client.senders.get(0)).isEqualTo(Thread.currentThread().getName());
    assertThat(client.senders.get(1)).startsWith("sluice-redis-pipeline-");
    assertThat(jedis.scriptExists(Collections.singletonList(Script.ACQUIRE.sha1())))
        .as("cached again")
        .containsExactly(true);
  }

  @Test
  void aCallRedisDidNotAnswerInTimeFailsItsCallerAndIsNeverSentAgain() {
    Pipeliner pipeliner = pipeliner(client(100), 100, 2);
    assertThat(remaining(pipeliner)).isEqualTo(LIMIT - 1);
    jedis.sendCommand(Protocol.Command.CONFIG, "RESETSTAT");
    redis.pause();
    for (int i = 0; i < Breaker.FAILURES_TO_OPEN; i++) {
      long start = System.nanoTime();
      assertThatThrownBy(() -> remaining(pipeliner)).isInstanceOf(JedisException.class);
      assertThat(System.nanoTime() - start).isLessThan(TimeUnit.MILLISECONDS.toNanos(1_000));
    }
    assertThat(breaker.isOpen()).as("Redis failed to answer: the breaker opens").isTrue();
    redis.resume();
    assertThat(remaining(pipeliner)).isBetween(LIMIT - 2 - Breaker.FAILURES_TO_OPEN, LIMIT - 2);
    // Each timed-out call ran at most once (when Redis woke up and read it), then this one.
    assertThat(scriptRuns()).isLessThanOrEqualTo(Breaker.FAILURES_TO_OPEN + 1);
  }

  /**
   * A key of another type cannot be decided. Bundled with other identities' calls, it must not take
   * their decisions down, nor have them sent twice: acquire.lua refuses only its call and decides
   * the others of the run, before and after it. And Redis answered, so the breaker hears no
   * failure.
   */
  @Test
  void aBundledCallWithAKeyOfAnotherTypeFailsAloneAndTheOthersCountOnce() throws Exception {
    Watched client = client(1_000);
    Pipeliner pipeliner = pipeliner(client, 5_000, 1);
    String poisoned = "pipe:{poisoned}:t";
    jedis.hset(poisoned, "not", "a counter");
    client.gate = new CountDownLatch(1);
    CountDownLatch gate = client.gate;
    Future<Object> first = submit(pipeliner, key);
    awaitTrue(() -> client.senders.size() == 1); // the sender holds the first call at the gate
    Future<Object> before = submit(pipeliner, key + "2");
    Future<Object> bad = submit(pipeliner, poisoned);
    Future<Object> after = submit(pipeliner, key + "3");
    gate.countDown(); // the sender drains the three queued calls into one batch: one bundled run
    assertThat(((List<?>) first.get(5, TimeUnit.SECONDS)).subList(0, 2))
        .isEqualTo(List.of(1L, LIMIT - 1));
    assertThat(((List<?>) before.get(5, TimeUnit.SECONDS)).subList(0, 2))
        .isEqualTo(List.of(1L, LIMIT - 1));
    assertThat(((List<?>) after.get(5, TimeUnit.SECONDS)).subList(0, 2))
        .isEqualTo(List.of(1L, LIMIT - 1));
    assertThatThrownBy(() -> bad.get(5, TimeUnit.SECONDS)).hasMessageContaining("WRONGTYPE");
    assertThat(client.senders).as("first, then the bundle, and nothing sent again").hasSize(2);
    assertThat(remaining(pipeliner, key + "2")).as("counted once").isEqualTo(LIMIT - 2);
    for (int i = 0; i < Breaker.FAILURES_TO_OPEN; i++) {
      Future<Object> again = submit(pipeliner, poisoned);
      assertThatThrownBy(() -> again.get(5, TimeUnit.SECONDS)).hasMessageContaining("WRONGTYPE");
    }
    assertThat(breaker.isOpen()).as("an answer, however bad, is no outage").isFalse();
  }

  private Future<Object> submit(Pipeliner pipeliner, String key) {
    return pipeliner.submit(
        Script.ACQUIRE, breaker, List.of(key), oneToken(), pipeliner.deadlineFromNow());
  }

  /**
   * Under overload a call can wait in the queue longer than its caller waits for it; the caller
   * then decides locally, so sending the call later would count the request a second time.
   */
  @Test
  void aQueuedCallWhoseCallerGaveUpIsNeverSent() throws Exception {
    Watched client = client(1_000);
    Pipeliner pipeliner = pipeliner(client, 5_000, 1);
    jedis.sendCommand(Protocol.Command.CONFIG, "RESETSTAT");
    client.gate = new CountDownLatch(1);
    CountDownLatch gate = client.gate;
    Future<Object> first = submit(pipeliner, key);
    awaitTrue(() -> client.senders.size() == 1); // the only sender holds the first call
    long budget = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(50);
    Future<Object> late =
        pipeliner.submit(Script.ACQUIRE, breaker, List.of(key), oneToken(), budget);
    assertThatThrownBy(() -> pipeliner.await(late, budget)).hasMessageContaining("budget");
    gate.countDown();
    assertThat(((List<?>) first.get(5, TimeUnit.SECONDS)).get(1)).isEqualTo(LIMIT - 1);
    assertThatThrownBy(() -> late.get(5, TimeUnit.SECONDS)).hasMessageContaining("budget");
    assertThat(scriptRuns()).as("the call nobody waited for was not sent").isEqualTo(1);
    assertThat(breaker.isOpen()).isFalse();
  }

  /**
   * Borrowing, connecting and reading share one budget: a caller that waited for the pool's only
   * connection reads for what is left, not for a timeout of its own on top. A read cut that short
   * says more of the caller's wait than of Redis, so it is no failure for the breaker.
   */
  @Test
  void aCallerLeadingARoundTripWaitsAtMostItsBudgetInAll() throws Exception {
    long budgetMillis = 400;
    UnifiedJedis client =
        RedisSettings.standalone(
                URI.create("redis://" + redis.host() + ":" + redis.port()), (int) budgetMillis, 1)
            .connect();
    closing.add(client);
    Pipeliner pipeliner = pipeliner(client, budgetMillis, 1);
    ScheduledExecutorService later = Executors.newSingleThreadScheduledExecutor();
    closing.add(later::shutdownNow);
    for (int i = 0; i < Breaker.FAILURES_TO_OPEN; i++) {
      redis.resume(); // a timed-out connection is dropped: the pool connects anew
      AbstractPipeline held = client.pipelined(); // the pool's only connection, for 300 ms
      redis.pause();
      later.schedule(held::close, 300, TimeUnit.MILLISECONDS);
      long start = System.nanoTime();
      assertThatThrownBy(() -> remaining(pipeliner)).isInstanceOf(JedisException.class);
      long waited = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
      assertThat(waited)
          .as("300 ms for the connection, then the 100 ms left: not 300 + a whole 400")
          .isBetween(250L, budgetMillis + 150);
    }
    assertThat(breaker.isOpen()).as("each read was cut short by the caller's own wait").isFalse();
  }

  /**
   * As a saturated CPU or a pause of this JVM does: the threads that send the calls do not run
   * until the callers' budgets are spent, though Redis would answer at once. That is no Redis
   * failure: each call is still sent, answered by Redis and counted once, never decided locally.
   */
  @Test
  void aCallHeldUpByThisJvmPastItsBudgetIsStillAnsweredByRedis() throws Exception {
    Watched client = client(1_000);
    Pipeliner pipeliner = pipeliner(client, 50, 1);
    jedis.sendCommand(Protocol.Command.CONFIG, "RESETSTAT");
    client.stallMillis = 200; // every pipeline starts four budgets late
    CompletableFuture<Long> first = CompletableFuture.supplyAsync(() -> remaining(pipeliner));
    awaitTrue(() -> client.senders.size() == 1);
    long second = remaining(pipeliner);
    assertThat(Arrays.asList(first.get(5, TimeUnit.SECONDS), second))
        .containsExactlyInAnyOrder(LIMIT - 1, LIMIT - 2);
    assertThat(scriptRuns()).as("each sent once").isEqualTo(2);
    assertThat(breaker.isOpen()).isFalse();
  }

  /**
   * A caller not run between the start of its decision and the send of its call (its budget spent
   * before it borrowed a connection) still sends it, and Redis gets half a timeout to answer it.
   */
  @Test
  void aCallWhoseBudgetWasSpentBeforeItWasSentIsStillSent() {
    UnifiedJedis client =
        RedisSettings.standalone(URI.create("redis://" + redis.host() + ":" + redis.port()), 50, 2)
            .connect();
    closing.add(client);
    Pipeliner pipeliner = pipeliner(client, 50, 1);
    long spent = System.nanoTime() - TimeUnit.MILLISECONDS.toNanos(200);
    List<?> reply =
        (List<?>)
            pipeliner.run(Script.ACQUIRE, breaker, Collections.singletonList(key), oneToken(), spent);
    assertThat(reply.subList(0, 2)).isEqualTo(List.of(1L, LIMIT - 1));
  }

  private Watched client(int socketTimeoutMillis) {
    Watched client = new Watched(socketTimeoutMillis);
    closing.add(client);
    return client;
  }

  private Pipeliner pipeliner(UnifiedJedis client, long timeoutMillis, int senders) {
    Pipeliner pipeliner =
        new Pipeliner(
            client, timeoutMillis, senders, senders, new RoundTrips(Clock.SYSTEM::micros));
    closing.add(pipeliner);
    return pipeliner;
  }

  /** One token of {@code key}'s bucket of {@value #LIMIT} per minute; what is left after it. */
  private long remaining(Pipeliner pipeliner) {
    return remaining(pipeliner, key);
  }

  private long remaining(Pipeliner pipeliner, String key) {
    List<?> reply =
        (List<?>)
            pipeliner.run(
                Script.ACQUIRE,
                breaker,
                Collections.singletonList(key),
                oneToken(),
                pipeliner.deadlineFromNow());
    assertThat(reply.get(0)).as("allowed").isEqualTo(1L);
    return (Long) reply.get(1);
  }

  /** acquire.lua's arguments for one token of a bucket of {@value #LIMIT} per minute. */
  private static List<String> oneToken() {
    return new ArrayList<>(
        Arrays.asList("0", "1", "1", "1", "1", "t", "1000", "60000000", "60000", "60000000", "1"));
  }

  private static long scriptRuns() {
    long runs = 0;
    for (String line : jedis.info("commandstats").split("\r\n")) {
      if (line.startsWith("cmdstat_evalsha:") || line.startsWith("cmdstat_eval:")) {
        runs += Long.parseLong(line.replaceAll(".*[:,]calls=(\\d+),.*", "$1"));
      }
    }
    return runs;
  }

  private static void awaitTrue(BooleanSupplier condition) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("never happened within 5 s");
      }
      Thread.yield();
    }
  }

  /** A client that records which thread sends each pipeline, and can hold the next one back. */
  private static final class Watched extends JedisPooled {
    final List<String> senders = new CopyOnWriteArrayList<>();
    volatile CountDownLatch gate;

    /** How long every pipeline waits before it is made: this JVM not running the sender. */
    volatile long stallMillis;

    Watched(int socketTimeoutMillis) {
      super(
          new HostAndPort(redis.host(), redis.port()),
          DefaultJedisClientConfig.builder().socketTimeoutMillis(socketTimeoutMillis).build());
    }

    @Override
    public Pipeline pipelined() {
      senders.add(Thread.currentThread().getName());
      if (stallMillis > 0) {
        try {
          Thread.sleep(stallMillis);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      CountDownLatch held = gate;
      gate = null;
      if (held != null) {
        try {
          held.await(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      return super.pipelined();
    }
  }
}
