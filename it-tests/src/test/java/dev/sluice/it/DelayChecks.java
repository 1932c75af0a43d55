package dev.sluice.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A rule's delay, for the Filter and the agent alike, on the {@code pay} rule of {@link #RULE} (5/s
 * per client on /delay/pay, max_wait 2s): a burst is served at the rule's rate up to max_wait, and
 * the rest is denied at once.
 */
public final class DelayChecks {
  /** The rule under test, an item of the config's {@code rules}. */
  public static final String RULE =
      "  - { id: pay, match: { path: /delay/pay }, key: ip, limit: 5, window: 1s,"
          + " algorithm: token_bucket, delay: { max_wait: 2s, max_waiting: 12 } }\n";

  /** The file's bound on waiting requests, above the default, for the burst's 10 that wait. */
  public static final String MAX_WAITING = "max_waiting: 16\n";

  private DelayChecks() {}

  /**
   * 20 at once at 5/s with max_wait 2s. A request is released no earlier than its slot, and the
   * slots are 200 ms apart from the first decision on, so the k-th response served (in the order
   * they end) ends at least k × 200 ms after the burst began; at least the 11 slots within 2 s are
   * served; the rest are 429s, sent at once rather than after a wait.
   */
  public static void assertABurstIsServedAtTheRateAndTheRestDeniedAtOnce(Http http, String client)
      throws Exception {
    // A fresh container's first requests take a second or more (class loading, the servlet's
    // init): another client warms the path, so the burst is decided at one instant as it is sent.
    for (int i = 0; i < 3; i++) {
      assertThat(http.get("/delay/pay", "10.255.0." + i).statusCode()).isEqualTo(200);
    }
    int burst = 20;
    List<Long> servedAfter = Collections.synchronizedList(new ArrayList<>());
    List<Long> deniedAfter = Collections.synchronizedList(new ArrayList<>());
    List<String> retryAfters = Collections.synchronizedList(new ArrayList<>());
    List<String> remaining = Collections.synchronizedList(new ArrayList<>());
    List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
    CountDownLatch go = new CountDownLatch(1);
    CountDownLatch done = new CountDownLatch(burst);
    long[] began = new long[1];
    for (int i = 0; i < burst; i++) {
      Thread t =
          new Thread(
              () -> {
                try {
                  go.await();
                  HttpResponse<String> r = http.get("/delay/pay", client);
                  long after = (System.nanoTime() - began[0]) / 1_000_000;
                  if (r.statusCode() == 200) {
                    servedAfter.add(after);
                    remaining.add(r.headers().firstValue(Http.REMAINING).orElse(null));
                  } else {
                    assertThat(r.statusCode()).isEqualTo(429);
                    deniedAfter.add(after);
                    retryAfters.add(r.headers().firstValue(Http.RETRY_AFTER).orElse(null));
                  }
                } catch (Throwable e) {
                  failures.add(e);
                } finally {
                  done.countDown();
                }
              },
              "delay-client-" + i);
      t.setDaemon(true);
      t.start();
    }
    began[0] = System.nanoTime();
    go.countDown();
    assertThat(done.await(30, TimeUnit.SECONDS)).as("every request answered").isTrue();
    assertThat(failures).isEmpty();
    Collections.sort(servedAfter);
    System.out.printf(
        "delay burst: served after %s ms (remaining %s); denied after %s ms%n",
        servedAfter, remaining, deniedAfter);
    assertThat(servedAfter.size()).isGreaterThanOrEqualTo(11);
    assertThat(servedAfter.size() + deniedAfter.size()).isEqualTo(burst);
    for (int k = 0; k < servedAfter.size(); k++) {
      assertThat(servedAfter.get(k)).as("served #%d", k).isGreaterThanOrEqualTo(200L * k);
    }
    assertThat(servedAfter.get(servedAfter.size() - 1))
        .as("none waited past max_wait, from the last slot's decision")
        .isLessThan(3_500L);
    assertThat(deniedAfter).isNotEmpty();
    assertThat(retryAfters).containsOnly("1");
    long firstSlotOfDenied = 2_000;
    assertThat(Collections.max(deniedAfter))
        .as("denied at once, long before the last slot")
        .isLessThan(firstSlotOfDenied);
  }
}
