package dev.sluice.it.store;

import static dev.sluice.it.store.DelayMember.SECOND;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.algo.Algorithm;
import dev.sluice.algo.Quota;
import dev.sluice.it.jvm.ChildJvm;
import dev.sluice.it.redis.WithStandaloneRedis;
import dev.sluice.it.store.DelayMember.Reservations;
import dev.sluice.store.Counters;
import dev.sluice.store.Permit;
import dev.sluice.store.redis.RedisStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A delayed rule on real Redis: slots are reserved atomically by the script, so a fleet never hands
 * out the same slot twice, and a slot given back is taken by the next request.
 */
class DelayedFleetIT extends WithStandaloneRedis {
  private static final Duration CHILD = Duration.ofSeconds(30);

  /**
   * A burst of 20 at 5/s with max_wait 2s, 10 from another JVM and 10 from two stores in this one,
   * all at one instant: every slot is distinct and at least 200 ms from the next, no wait exceeds 2
   * s, and at least the 11 slots that fit are handed out (a few more only as Redis time passes
   * during the burst: one per 200 ms of it).
   */
  @Test
  void twoJvmsNeverShareASlotAndSpaceTheBurstAtTheRate() throws Exception {
    String prefix = "delay-fleet";
    try (RedisStore one = FleetMember.open(redis.host(), redis.port(), prefix);
        RedisStore two = FleetMember.open(redis.host(), redis.port(), prefix);
        ChildJvm child =
            ChildJvm.start(
                "delay member",
                DelayMember.class,
                redis.host(),
                Integer.toString(redis.port()),
                prefix,
                "10")) {
      FleetMember.warmUp(one, Algorithm.TOKEN_BUCKET, SECOND);
      FleetMember.warmUp(two, Algorithm.TOKEN_BUCKET, SECOND);
      child.awaitLine("ready", CHILD);
      long startAt = System.currentTimeMillis() + 500;
      child.send("go " + startAt);
      Thread.sleep(Math.max(0, startAt - System.currentTimeMillis()));
      long began = System.nanoTime();
      Reservations here = DelayMember.reserve(List.of(one, two), 10);
      Reservations there = Reservations.parse(child.awaitLine("slots ", CHILD));
      long millis = (System.nanoTime() - began) / 1_000_000;
      child.awaitSuccess(CHILD);
      System.out.printf("DelayedFleetIT: this JVM %s; the other %s; %d ms%n", here, there, millis);

      List<Long> slots = new ArrayList<>(here.slots);
      slots.addAll(there.slots);
      Collections.sort(slots);
      for (int i = 1; i < slots.size(); i++) {
        assertThat(slots.get(i) - slots.get(i - 1))
            .as("slot %d after slot %d: %s", i, i - 1, slots)
            .isGreaterThanOrEqualTo(200_000L);
      }
      List<Long> waits = new ArrayList<>(here.waits);
      waits.addAll(there.waits);
      assertThat(waits).allSatisfy(w -> assertThat(w).isBetween(0L, 2 * SECOND));
      assertThat(slots.size()).isGreaterThanOrEqualTo(11);
      assertThat(slots.size()).isLessThanOrEqualTo(11 + (int) (millis / 200) + 1);
      assertThat(slots.size() + here.denied + there.denied).isEqualTo(20);
      assertThat(here.denied + there.denied).as("beyond max_wait: denied").isPositive();
    }
  }

  /** A slot given back (a request that could not wait) is the next request's slot. */
  @Test
  void aRefundedSlotIsTakenByTheNextRequest() throws Exception {
    String prefix = "delay-refund";
    // One slot per 10 s: however slow this machine, nothing refills while the test runs.
    long window = 10 * SECOND;
    Quota quota = Quota.of(1, window, 1).delayed(0, 1, 60 * SECOND);
    try (RedisStore store = FleetMember.open(redis.host(), redis.port(), prefix)) {
      Counters counters = store.counters("payments", Algorithm.TOKEN_BUCKET, window);
      List<Permit> permits = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        Permit permit = new Permit(counters, "global", quota, 1);
        store.acquire(Collections.singletonList(permit));
        assertThat(permit.verdict().allowed()).isTrue();
        permits.add(permit);
      }
      Permit last = permits.get(2);
      store.refund(Collections.singletonList(last));
      String key = RedisKeys.key(prefix, "global", "payments", Algorithm.TOKEN_BUCKET, window);
      long deadline = System.nanoTime() + 5_000_000_000L;
      while (!String.valueOf(permits.get(1).take()).equals(jedis.get(key))
          && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
      assertThat(jedis.get(key))
          .as("the bucket is back at the second slot")
          .isEqualTo(String.valueOf(permits.get(1).take()));
      Permit next = new Permit(counters, "global", quota, 1);
      store.acquire(Collections.singletonList(next));
      assertThat(next.take()).as("the refunded slot again").isEqualTo(last.take());
    }
  }
}
