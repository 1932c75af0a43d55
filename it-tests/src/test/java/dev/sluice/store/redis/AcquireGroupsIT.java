package dev.sluice.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.it.redis.WithStandaloneRedis;
import dev.sluice.store.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Requests of one identity merged into one run of acquire.lua (as the Pipeliner merges those that
 * wait in one batch) get exactly the verdicts they would get as separate calls, in order: alike
 * ones grouped with a count, different ones (costs, quotas) in groups of their own.
 */
class AcquireGroupsIT extends WithStandaloneRedis {
  /** A deadline no test reaches: these calls are never given up on. */
  private static final long MINUTE_NANOS = 60_000_000_000L;

  /** The calls' master; these tests send nothing through a pipeline, so it hears nothing. */
  private static final Breaker MASTER = new Breaker(Clock.SYSTEM, "test");

  private static final long NOW = 1_800_000_000L * 1_000_000 + 123_456;

  @ParameterizedTest
  @ValueSource(strings = {"f", "s", "t"})
  void mergedRequestsGetTheVerdictsOfSeparateCalls(String algorithm) {
    Random random = new Random(algorithm.charAt(0));
    List<List<String>> requests = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      // Mostly alike, sometimes a bigger cost or another limit: runs of groups of all sizes.
      String cost = random.nextInt(5) == 0 ? "3" : "1";
      String limit = random.nextInt(8) == 0 ? "25" : "30";
      requests.add(Arrays.asList(algorithm, limit, "60000000", "2000000", "60000000", cost));
    }
    String separate = "rl{grp}separate" + algorithm;
    List<Object> expected = new ArrayList<>();
    for (List<String> request : requests) {
      expected.addAll((List<?>) run(separate, queued(separate, request)));
    }
    String merged = "rl{grp}merged" + algorithm;
    PendingCall first = queued(merged, requests.get(0));
    List<PendingCall> rest = new ArrayList<>();
    for (List<String> request : requests.subList(1, requests.size())) {
      PendingCall other = queued(merged, request);
      rest.add(other);
      first.absorb(other);
    }
    assertThat(Integer.parseInt(first.args.get(IdentityCall.GROUPS))).isLessThan(requests.size());
    first.complete(run(merged, first));
    List<Object> actual = new ArrayList<>((List<?>) first.result.join());
    for (PendingCall other : rest) {
      actual.addAll((List<?>) other.result.join());
    }
    assertThat(actual).isEqualTo(expected);
    assertThat(actual).as("some allowed, some denied").contains(0L, 1L);
    assertThat(jedis.get(merged)).isEqualTo(jedis.get(separate));
  }

  /**
   * Calls of several identities, each with one to three rules and each merged from several
   * requests, carried by one run (a bundle, as on a server without cluster slots): every request's
   * verdict is what it would be alone.
   */
  @ParameterizedTest
  @ValueSource(strings = {"f", "s", "t"})
  void bundledCallsOfSeveralIdentitiesGetTheVerdictsOfSeparateCalls(String algorithm) {
    Random random = new Random(31L * algorithm.charAt(0));
    List<PendingCall> merged = new ArrayList<>();
    List<Object> expected = new ArrayList<>();
    List<PendingCall> all = new ArrayList<>();
    for (int identity = 0; identity < 6; identity++) {
      int rules = 1 + identity % 3;
      List<String> separateKeys = new ArrayList<>();
      List<String> mergedKeys = new ArrayList<>();
      for (int r = 0; r < rules; r++) {
        separateKeys.add("rl{id" + identity + "}s" + algorithm + r);
        mergedKeys.add("rl{id" + identity + "}b" + algorithm + r);
      }
      PendingCall first = null;
      for (int i = 0; i < 12; i++) {
        List<String> request = new ArrayList<>();
        for (int r = 0; r < rules; r++) {
          String limit = Integer.toString(5 + 2 * r);
          String cost = random.nextInt(4) == 0 ? "2" : "1";
          request.addAll(Arrays.asList(algorithm, limit, "60000000", "6000000", "30000000", cost));
        }
        expected.addAll((List<?>) run(separateKeys, call(separateKeys, request).args));
        PendingCall call = call(mergedKeys, request);
        all.add(call);
        if (first == null) {
          first = call;
          merged.add(call);
        } else {
          first.absorb(call);
        }
      }
    }
    PendingCall bundle = PendingCall.bundle(merged);
    bundle.complete(run(bundle.keys, bundle.args));
    List<Object> actual = new ArrayList<>();
    for (PendingCall call : all) {
      actual.addAll((List<?>) call.result.join());
    }
    assertThat(actual).isEqualTo(expected);
    assertThat(actual).as("some allowed, some denied").contains(0L, 1L);
  }

  private static PendingCall call(List<String> keys, List<String> request) {
    List<String> args = IdentityCall.oneRequest("=" + NOW, keys.size());
    args.addAll(request);
    return new PendingCall(Script.ACQUIRE, MASTER, keys, args, System.nanoTime() + MINUTE_NANOS);
  }

  private static Object run(List<String> keys, List<String> args) {
    return Script.ACQUIRE.run(jedis, keys, args);
  }

  private static PendingCall queued(String key, List<String> request) {
    List<String> args = IdentityCall.oneRequest("=" + NOW, 1);
    args.addAll(request);
    return new PendingCall(
        Script.ACQUIRE,
        MASTER,
        Collections.singletonList(key),
        args,
        System.nanoTime() + MINUTE_NANOS);
  }

  private static Object run(String key, PendingCall call) {
    return Script.ACQUIRE.run(jedis, Collections.singletonList(key), call.args);
  }
}
