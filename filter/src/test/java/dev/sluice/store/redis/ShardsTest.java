package dev.sluice.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.store.ManualClock;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.HostAndPort;

class ShardsTest {
  private static final HostAndPort FIRST = new HostAndPort("127.0.0.1", 7001);
  private static final HostAndPort SECOND = new HostAndPort("127.0.0.1", 7002);
  private static final HostAndPort PROMOTED = new HostAndPort("127.0.0.1", 7004);

  private final Shards shards = new Shards(new ManualClock(0), "cluster");
  private final Slots slots = new Slots().serve(1, FIRST).serve(2, SECOND);

  @Test
  void untilKeysArePlacedEveryKeyHasTheWholeBreaker() {
    assertThat(shards.of("a")).isSameAs(shards.whole()).isSameAs(shards.of("b"));
  }

  @Test
  void eachMasterHasABreakerOfItsOwn() {
    shards.locate(slots);

    assertThat(shards.of("1a")).isSameAs(shards.of("1b")).isNotSameAs(shards.whole());
    assertThat(shards.of("2a")).isNotSameAs(shards.of("1a")).isNotSameAs(shards.whole());
    assertThat(shards.of("x")).as("a slot without a master").isSameAs(shards.whole());
  }

  @Test
  void oneFailingMasterLeavesTheOthersCalling() {
    shards.locate(slots);
    shards.of("1a").failed(new RuntimeException("down"), Breaker.FAILURES_TO_OPEN);

    assertThat(shards.of("1a").pass()).isEqualTo(Breaker.Pass.LOCAL);
    assertThat(shards.of("2a").pass()).isEqualTo(Breaker.Pass.CALL);
    assertThat(shards.unreachable("1a", null)).isTrue();
    assertThat(shards.unreachable("1a", shards.of("1a"))).as("its own probe").isFalse();
    assertThat(shards.unreachable("2a", null)).isFalse();
  }

  @Test
  void aReplicaPromotedInAFailoverInheritsItsSlotsOpenBreaker() {
    shards.locate(slots);
    Breaker failed = shards.of("1a");
    failed.failed(new RuntimeException("down"), Breaker.FAILURES_TO_OPEN);

    slots.serve(1, PROMOTED);

    assertThat(shards.of("1a"))
        .as("what was admitted locally for these slots must still be handed over first")
        .isSameAs(failed);
    assertThat(shards.of("1a").pass()).isEqualTo(Breaker.Pass.LOCAL);
  }

  @Test
  void aSlotMovedToAKnownMasterTakesThatMastersBreaker() {
    shards.locate(slots);
    Breaker first = shards.of("1a");
    Breaker second = shards.of("2a");

    slots.serve(1, SECOND);

    assertThat(shards.of("1a")).isSameAs(second).isNotSameAs(first);
  }
}
