package dev.sluice.metrics;

import static dev.sluice.store.ManualClock.SECOND;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.sluice.store.ManualClock;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class TopLimitedTest {
  private final ManualClock clock = new ManualClock(1_800_000_000L * SECOND);
  private final TopLimited top = new TopLimited(10, clock::micros);

  private static List<String> clients(List<LimitedClient> top) {
    return top.stream().map(LimitedClient::getClient).collect(Collectors.toList());
  }

  @Test
  void findsTheHeavyHittersAmongManyClientsInBoundedSpace() {
    // 20,000 clients denied once each, and two denied more than a tenth of the time.
    for (int i = 0; i < 20_000; i++) {
      top.record("ip=10.0." + (i / 256) + "." + (i % 256));
      if (i % 2 == 0) {
        top.record("ip=203.0.113.1");
      }
      if (i % 5 == 0) {
        top.record("ip=203.0.113.2");
      }
    }
    List<LimitedClient> found = top.top(true);
    assertThat(found).hasSize(10);
    assertThat(clients(found).subList(0, 2)).containsExactly("ip=203.0.113.1", "ip=203.0.113.2");
    for (int i = 0; i < 2; i++) {
      long truth = i == 0 ? 10_000 : 4_000;
      assertThat(found.get(i).getDenials())
          .as("never below the truth, above it by at most the overcount")
          .isBetween(truth, truth + found.get(i).getMaxOvercount());
    }
  }

  @Test
  void aFewClientsAreCountedExactly() {
    for (int i = 0; i < 5; i++) {
      top.record("key=a");
    }
    top.record("key=b");
    List<LimitedClient> found = top.top(true);
    assertThat(clients(found)).containsExactly("key=a", "key=b");
    assertThat(found.get(0).getDenials()).isEqualTo(5);
    assertThat(found.get(0).getMaxOvercount()).isZero();
  }

  @Test
  void showsTheLastIntervalBesideThisOneAndForgetsOlder() {
    top.record("ip=1.1.1.1");
    clock.advance(TopLimited.INTERVAL_MICROS);
    assertThat(clients(top.top(true))).as("the last interval").containsExactly("ip=1.1.1.1");
    top.record("ip=2.2.2.2");
    top.record("ip=2.2.2.2");
    top.record("ip=1.1.1.1");
    List<LimitedClient> found = top.top(true);
    assertThat(clients(found)).containsExactlyInAnyOrder("ip=1.1.1.1", "ip=2.2.2.2");
    assertThat(found).allMatch(c -> c.getDenials() == 2);

    clock.advance(TopLimited.INTERVAL_MICROS);
    assertThat(top.top(true))
        .as("the interval before the last is forgotten")
        .extracting(LimitedClient::getClient, LimitedClient::getDenials)
        .containsExactly(tuple("ip=2.2.2.2", 2L), tuple("ip=1.1.1.1", 1L));
    clock.advance(2 * TopLimited.INTERVAL_MICROS);
    assertThat(top.top(true)).isEmpty();
  }

  @Test
  void threadsRecordApartAndAreCountedTogether() throws Exception {
    Thread[] threads = new Thread[2 * TopLimited.STRIPES];
    for (int t = 0; t < threads.length; t++) {
      String own = "ip=10.0.0." + t;
      threads[t] =
          new Thread(
              () -> {
                for (int i = 0; i < 1_000; i++) {
                  top.record("ip=203.0.113.1");
                  top.record(own);
                }
              });
      threads[t].start();
    }
    for (Thread thread : threads) {
      thread.join();
    }
    LimitedClient first = top.top(true).get(0);
    assertThat(first.getClient()).isEqualTo("ip=203.0.113.1");
    assertThat(first.getDenials()).isEqualTo(1_000L * threads.length);
    assertThat(first.getMaxOvercount()).as("no stripe was full").isZero();
  }

  @Test
  void aClientSomeStripesDisplacedIsCountedAtLeastAsOftenAsItWasDenied() throws Exception {
    // Two threads of different stripes: one denies the client rarely among many others, so its
    // stripe displaces it; the merged count must still not fall below the truth.
    Thread rare =
        new Thread(
            () -> {
              for (int i = 0; i < 5_000; i++) {
                top.record("ip=10.1." + (i / 256) + "." + (i % 256));
                if (i % 50 == 0) {
                  top.record("ip=203.0.113.9");
                }
              }
            });
    Runnable often =
        () -> {
          for (int i = 0; i < 3_000; i++) {
            top.record("ip=203.0.113.9");
          }
        };
    Thread other = new Thread(often);
    for (int tries = 1; TopLimited.stripeOf(other) == TopLimited.stripeOf(rare); tries++) {
      assertThat(tries).as("threads tried for another stripe").isLessThan(1_000);
      other = new Thread(often);
    }
    for (Thread thread : new Thread[] {rare, other}) {
      thread.start();
      thread.join();
    }
    LimitedClient client = top.top(true).get(0);
    assertThat(client.getClient()).isEqualTo("ip=203.0.113.9");
    assertThat(client.getDenials()).isBetween(3_100L, 3_100L + client.getMaxOvercount());
  }

  @Test
  void identitiesAreHashedUnlessRawIsAskedFor() {
    top.record("key=secret-api-key&ip=203.0.113.7");
    top.record("global");
    List<String> hashed = clients(top.top(false));
    assertThat(hashed).contains("global");
    String composite = hashed.stream().filter(c -> c.startsWith("key=")).findFirst().orElseThrow();
    assertThat(composite).matches("key=[0-9a-f]{12}&ip=[0-9a-f]{12}").doesNotContain("secret");
    assertThat(LimitedClient.hashed("key=secret-api-key&ip=203.0.113.7"))
        .as("the same hash every time, so an operator can check a suspect")
        .isEqualTo(composite);
    assertThat(clients(top.top(true))).contains("key=secret-api-key&ip=203.0.113.7");
  }
}
