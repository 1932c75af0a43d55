package dev.sluice.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.store.ManualClock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

class CallMergerTest {
  private static final long MINUTE_NANOS = 60_000_000_000L;
  private static final Breaker MASTER = new Breaker(new ManualClock(0), "test");

  private static PendingCall call(String cost) {
    List<String> args = IdentityCall.oneRequest("0", 1);
    args.addAll(Arrays.asList("t", "100", "60000000", "600000", "6000000", cost));
    return new PendingCall(
        Script.ACQUIRE,
        MASTER,
        Collections.singletonList("rl{abc}defghij"),
        args,
        System.nanoTime() + MINUTE_NANOS);
  }

  /** What acquire.lua would answer: four integers per request, numbered in request order. */
  private static List<Long> reply(int requests) {
    List<Long> reply = new ArrayList<>();
    for (long r = 0; r < 4L * requests; r++) {
      reply.add(r);
    }
    return reply;
  }

  /**
   * A call that merged others and came back unsent (its leader's budget ran out borrowing a
   * connection) goes to the senders' queue, where it may meet a newer call for the same keys: it
   * must not be merged into that one, which hands each call it merged one request's answer (the
   * calls it carries would never be answered, and the answers after it would be shifted).
   */
  @Test
  void aCallCarryingMergedOnesIsNeverMergedIntoAnother() throws Exception {
    PendingCall carrier = call("1");
    PendingCall carried = call("2");
    carrier.absorb(carried);
    PendingCall newer = call("1");
    PendingCall newest = call("3");

    List<PendingCall> sends =
        CallMerger.sends(new ArrayList<>(Arrays.asList(newer, carrier, newest)), false);
    for (PendingCall send : sends) {
      send.complete(reply(10)); // more than any send needs: each takes its part from the front
    }

    for (PendingCall call : Arrays.asList(newer, carrier, carried, newest)) {
      assertThat(call.result).as("every call answered").isDone();
    }
    assertThat(newest.result.get())
        .as("the second request of its run")
        .isEqualTo(reply(2).subList(4, 8));
    assertThat(carried.result.get()).isEqualTo(reply(2).subList(4, 8));
  }
}
