package dev.sluice.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.store.ManualClock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

class PendingCallTest {
  /** A deadline no test reaches: these calls are never given up on. */
  private static final long MINUTE_NANOS = 60_000_000_000L;

  /** The calls' master; these tests send nothing through a pipeline, so it hears nothing. */
  private static final Breaker MASTER = new Breaker(new ManualClock(0), "test");

  private static PendingCall call(String limit, String cost) {
    return call("rl{abc}defghij", limit, cost);
  }

  private static PendingCall call(String key, String limit, String cost) {
    List<String> args = IdentityCall.oneRequest("0", 1);
    args.addAll(Arrays.asList("t", limit, "60000000", "600000", "6000000", cost));
    return new PendingCall(
        Script.ACQUIRE,
        MASTER,
        Collections.singletonList(key),
        args,
        System.nanoTime() + MINUTE_NANOS);
  }

  @Test
  void alikeRequestsBecomeOneGroupWithACount() {
    PendingCall first = call("100", "1");
    for (int i = 0; i < 24; i++) {
      first.absorb(call("100", "1"));
    }
    assertThat(first.args)
        .containsExactly(
            "0", "1", "1", "1", "25", "t", "100", "60000000", "600000", "6000000", "1");
  }

  @Test
  void aDifferentRequestStartsAGroupAndOrderIsKept() {
    PendingCall first = call("100", "1");
    first.absorb(call("100", "1"));
    first.absorb(call("100", "3"));
    first.absorb(call("100", "1"));
    assertThat(first.args)
        .containsExactly(
            "0",
            "1",
            "1",
            "3", //
            "2",
            "t",
            "100",
            "60000000",
            "600000",
            "6000000",
            "1", //
            "1",
            "t",
            "100",
            "60000000",
            "600000",
            "6000000",
            "3", //
            "1",
            "t",
            "100",
            "60000000",
            "600000",
            "6000000",
            "1");
  }

  @Test
  void eachMergedCallGetsItsOwnFourIntegersPerKey() throws Exception {
    PendingCall first = call("100", "1");
    List<PendingCall> others = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      PendingCall other = call("100", "1");
      others.add(other);
      first.absorb(other);
    }
    List<Long> reply = new ArrayList<>();
    for (long r = 0; r < 16; r++) {
      reply.add(r);
    }
    first.complete(reply);
    assertThat(first.result.get()).isEqualTo(Arrays.asList(0L, 1L, 2L, 3L));
    assertThat(others.get(2).result.get()).isEqualTo(Arrays.asList(12L, 13L, 14L, 15L));
  }

  @Test
  void aBundleCarriesSeveralCallsInOneRunAndSplitsItsReply() throws Exception {
    PendingCall a = call("rl{aaa}1234567", "100", "1");
    a.absorb(call("rl{aaa}1234567", "100", "1"));
    PendingCall b = call("rl{bbb}1234567", "50", "2");
    PendingCall bundle = PendingCall.bundle(Arrays.asList(a, b));
    assertThat(bundle.keys).containsExactly("rl{aaa}1234567", "rl{bbb}1234567");
    assertThat(bundle.args)
        .containsExactly(
            "0",
            "2", //
            "1",
            "1",
            "2",
            "t",
            "100",
            "60000000",
            "600000",
            "6000000",
            "1", //
            "1",
            "1",
            "1",
            "t",
            "50",
            "60000000",
            "600000",
            "6000000",
            "2");
    assertThat(bundle.mergeable()).isFalse();
    List<Long> reply = new ArrayList<>();
    for (long r = 0; r < 12; r++) {
      reply.add(r);
    }
    bundle.complete(reply);
    assertThat(a.result.get()).isEqualTo(Arrays.asList(0L, 1L, 2L, 3L));
    assertThat(b.result.get()).isEqualTo(Arrays.asList(8L, 9L, 10L, 11L));
  }
}
