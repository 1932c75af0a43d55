package dev.sluice.bench.redis;

import dev.sluice.algo.Algorithm;
import dev.sluice.algo.Quota;
import dev.sluice.store.Clock;
import dev.sluice.store.Counters;
import dev.sluice.store.MemoryStore;
import dev.sluice.store.OnError;
import dev.sluice.store.Permit;
import dev.sluice.store.redis.RedisKey;
import dev.sluice.store.redis.RedisSettings;
import dev.sluice.store.redis.RedisStore;
import java.net.URI;
import java.util.List;
import java.util.stream.IntStream;

/**
 * Sluice's Redis store as the filter opens it with the default settings (timeout 50 ms, pool 32,
 * key prefix {@code rl}, Redis TIME): one token-bucket rule, one permit per decision.
 *
 * <p>The rule fails closed, so a decision Redis did not answer in time is a denial here, and the
 * driver counts it as an error, instead of an allowed local decision that would look like a fast
 * Redis one.
 */
final class SluiceContender implements Contender {
  static final String PREFIX = "rl";
  static final int TIMEOUT_MILLIS = 50;
  static final int POOL_SIZE = 32;
  static final String RULE = "api";

  final RedisStore store;
  private final Counters counters;
  private final Quota quota;
  private final String[] identities;

  SluiceContender(int port, int keys) {
    this(open(port), Algorithm.TOKEN_BUCKET, WINDOW_MICROS, keys);
  }

  /** The same on {@code store}, which it closes, with a rule of {@code algorithm} and window. */
  SluiceContender(RedisStore store, Algorithm algorithm, long windowMicros, int keys) {
    this.store = store;
    counters = store.counters(RULE, algorithm, windowMicros);
    quota = Quota.of(LIMIT, windowMicros, LIMIT);
    identities = new String[keys];
    for (int i = 0; i < keys; i++) {
      identities[i] = Contender.identity(i);
    }
  }

  /** The KEYS of the store's script call for each of {@code keys} identities. */
  static List<List<String>> scriptKeys(int keys) {
    return IntStream.range(0, keys)
        .mapToObj(
            i ->
                List.of(
                    RedisKey.of(
                        PREFIX,
                        Contender.identity(i),
                        RULE,
                        Algorithm.TOKEN_BUCKET,
                        WINDOW_MICROS)))
        .toList();
  }

  static RedisStore open(int port) {
    URI url = URI.create("redis://" + LocalRedis.HOST + ":" + port);
    return RedisStore.open(
        RedisSettings.standalone(url, TIMEOUT_MILLIS, POOL_SIZE),
        PREFIX,
        1,
        Clock.SYSTEM,
        MemoryStore.DEFAULT_MAX_KEYS);
  }

  @Override
  public boolean take(int key) {
    Permit permit = new Permit(counters, identities[key], quota, 1, OnError.FAIL_CLOSED);
    store.acquire(List.of(permit));
    return permit.verdict().allowed();
  }

  @Override
  public void close() {
    store.close();
  }
}
