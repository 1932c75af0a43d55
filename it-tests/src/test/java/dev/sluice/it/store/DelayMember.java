package dev.sluice.it.store;

import dev.sluice.algo.Algorithm;
import dev.sluice.algo.Quota;
import dev.sluice.store.Counters;
import dev.sluice.store.Permit;
import dev.sluice.store.redis.RedisStore;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * One JVM of a fleet reserving slots of a delayed rule ({@link DelayedFleetIT}): 5/s, max_wait 2s,
 * on one shared key. Arguments: host port prefix count. Prints {@code ready}, waits for {@code go
 * <epoch millis>}, then makes {@code count} requests at that instant and prints {@code slots
 * <take>,... waits <micros>,... denied <n>}: each allowed request's slot (the TAT Redis left, Redis
 * time) and wait.
 */
public final class DelayMember {
  static final long SECOND = 1_000_000;
  static final Quota QUOTA = Quota.of(5, SECOND, 5).delayed(0, 1, 2 * SECOND);
  static final String RULE = "payments";

  private DelayMember() {}

  public static void main(String[] args) throws Exception {
    try (RedisStore store = FleetMember.open(args[0], Integer.parseInt(args[1]), args[2])) {
      FleetMember.warmUp(store, Algorithm.TOKEN_BUCKET, SECOND);
      System.out.println("ready");
      long go = FleetSimulationMember.awaitGo();
      Thread.sleep(Math.max(0, go - System.currentTimeMillis()));
      System.out.println(reserve(List.of(store), Integer.parseInt(args[3])));
      System.out.flush();
    }
  }

  /** {@code count} requests, taking turns over {@code stores}: what each got. */
  static Reservations reserve(List<RedisStore> stores, int count) {
    Reservations r = new Reservations();
    for (int i = 0; i < count; i++) {
      RedisStore store = stores.get(i % stores.size());
      Counters counters = store.counters(RULE, Algorithm.TOKEN_BUCKET, SECOND);
      Permit permit = new Permit(counters, "global", QUOTA, 1);
      store.acquire(Collections.singletonList(permit));
      if (permit.verdict().allowed()) {
        r.slots.add(permit.take());
        r.waits.add(QUOTA.waitMicros(permit.verdict()));
      } else {
        r.denied++;
      }
    }
    return r;
  }

  /** What one member's requests got, in the line a child prints and the test parses. */
  static final class Reservations {
    final List<Long> slots = new ArrayList<>();
    final List<Long> waits = new ArrayList<>();
    int denied;

    static Reservations parse(String line) {
      String[] f = line.split(" ");
      Reservations r = new Reservations();
      for (String s : f[1].split(",")) {
        if (!s.isEmpty()) {
          r.slots.add(Long.parseLong(s));
        }
      }
      for (String s : f[3].split(",")) {
        if (!s.isEmpty()) {
          r.waits.add(Long.parseLong(s));
        }
      }
      r.denied = Integer.parseInt(f[5]);
      return r;
    }

    @Override
    public String toString() {
      return "slots " + join(slots) + " waits " + join(waits) + " denied " + denied;
    }

    private static String join(List<Long> values) {
      StringBuilder b = new StringBuilder();
      for (Long v : values) {
        b.append(b.length() == 0 ? "" : ",").append(v);
      }
      return b.toString();
    }
  }
}
