package dev.sluice.it.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.algo.Algorithm;
import dev.sluice.algo.Quota;
import dev.sluice.it.redis.WithOwnRedisProcess;
import dev.sluice.metrics.LeaseStatus;
import dev.sluice.metrics.StoreStatus;
import dev.sluice.store.Clock;
import dev.sluice.store.Consistency;
import dev.sluice.store.Counters;
import dev.sluice.store.redis.RedisSettings;
import dev.sluice.store.redis.RedisStore;
import java.net.URI;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A local-first rule through a paused Redis (issue 29, item 4), one JVM of a fleet of two, a limit
 * of 100 in a window far longer than the test. Before the pause the JVM admitted 30 (the first two
 * exactly, the others from leases) and holds H permits leased; Redis counted 30 + H and said R
 * remained. While Redis is paused the JVM spends the H it holds, then falls back to its share of
 * what Redis said remained, R / 2, not of the whole limit: leased permits are never doubled by the
 * share. When Redis answers again the
 * handover charges only the share's admissions, so the fleet admits the limit once at most; less
 * only by the grants of lease calls that timed out in the pause and ran when Redis resumed.
 */
class LocalFirstOutageIT extends WithOwnRedisProcess {
  private static final int LIMIT = 100;
  private static final long SYNC = 60_000_000;

  private RedisStore store;

  @AfterEach
  void closeStore() {
    if (store != null) {
      store.close();
    }
    redis.restart(); // every test starts from a healthy, empty server
  }

  private int admitted(Counters rule, Quota quota, String id, int tries) {
    return HandoverIT.admitted(store, rule, quota, id, tries);
  }

  @ParameterizedTest
  @EnumSource(
      value = Algorithm.class,
      names = {"FIXED_WINDOW", "SLIDING_WINDOW"})
  void leasesHeldAreSpentTheShareStartsFromWhatRedisSaidRemainedAndNothingIsAdmittedTwice(
      Algorithm algorithm) throws InterruptedException {
    long window = RedisKeys.windowFarFromItsEdges();
    Quota quota = Quota.of(LIMIT, window, LIMIT);
    RedisSettings settings = RedisSettings.standalone(URI.create(redis.uri()), 300, 8);
    store = RedisStore.open(settings, "lfo-" + algorithm, 2, Clock.SYSTEM, 10_000);
    Counters rule = store.counters("api", algorithm, window, Consistency.localFirst(SYNC));
    String client = "ip=10.3.0.1";

    int before = admitted(rule, quota, client, 30);
    Thread.sleep(300); // a fetch ahead still in flight lands
    LeaseStatus leases = store.leases().get("api");
    assertThat(store.status().leases().get("api").leased())
        .as("the store's status carries its leases, for the page and metrics")
        .isEqualTo(leases.leased());
    long held = leases.permitsHeld();
    // The first requests' permits went the exact way (a cold identity's): Redis counted them too.
    long remained = LIMIT - leases.leased() - (before - leases.spent());
    assertThat(before).isEqualTo(30);
    assertThat(held).as("permits leased ahead of need").isPositive();

    redis.pause();
    int during;
    try {
      during = admitted(rule, quota, client, 2 * LIMIT);
    } finally {
      redis.resume();
    }
    assertThat(during).as("the lease held, then half of what Redis said remained").isEqualTo(
        (int) (held + remained / 2));

    // Other clients' requests end the outage: the probe is the handover.
    for (int i = 0; i < 500 && !closed(); i++) {
      admitted(rule, quota, "ip=10.3.0.2", 1);
      Thread.sleep(20);
    }
    assertThat(closed()).as("Redis decides again").isTrue();
    int after = admitted(rule, quota, client, 2 * LIMIT);
    int total = before + during + after;
    System.out.printf(
        "LocalFirstOutageIT %s: %d before (%d held), %d during, %d after: %d in all; %s%n",
        algorithm, before, held, during, after, total, store.leases().get("api"));
    assertThat(total).as("the limit, admitted once at most").isLessThanOrEqualTo(LIMIT);
    // Lease calls that timed out in the pause ran when Redis resumed: their grants stay counted,
    // unspent. The first asked for at most a lease's cap, limit / (2 x fleet); after it failed,
    // each asked for one, and the breaker opens after three failures.
    assertThat(total).as("stranded: lease calls lost").isGreaterThanOrEqualTo(LIMIT - 25 - 2);
  }

  private boolean closed() {
    return store.status().breakers().values().stream().allMatch(StoreStatus.CLOSED::equals);
  }
}
