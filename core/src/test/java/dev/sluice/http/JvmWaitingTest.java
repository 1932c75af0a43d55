package dev.sluice.http;

import static dev.sluice.store.ManualClock.SECOND;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.ConfigParser;
import dev.sluice.core.Limiter;
import dev.sluice.core.TestRequest;
import dev.sluice.store.ManualClock;
import dev.sluice.store.MemoryStore;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The file's {@code max_waiting} bounds the requests waiting in the whole JVM: every Enforcer (one
 * per application, one for the agent) and every copy of Sluice's classes count together.
 */
class JvmWaitingTest {
  private final ManualClock clock = new ManualClock(1_800_000_000L * SECOND);
  private final List<String> seen = new ArrayList<>();

  private Enforcer enforcer(WaitingRoom.Sleeper sleeper) throws Exception {
    Limiter limiter = new Limiter(new MemoryStore(clock, 100, 0));
    limiter.apply(
        ConfigParser.parse(
                "test.yaml",
                "max_waiting: 1\n"
                    + "rules:\n  - { id: pay, match: { path: /pay }, key: ip, limit: 5, window: 1s,"
                    + " algorithm: token_bucket, delay: { max_wait: 2s } }\n")
            .rules());
    return new Enforcer(limiter, Admin.NONE, clock, sleeper);
  }

  private static boolean pay(Enforcer enforcer) {
    try {
      return enforcer.admit(new FakeExchange(TestRequest.post("/pay")));
    } catch (java.io.IOException e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void aRequestWaitingInOneApplicationTakesTheOnePlaceOfAnother() throws Exception {
    Enforcer other = enforcer(micros -> seen.add("the other waited"));
    assertThat(pay(other)).as("passes at once").isTrue();
    Enforcer first =
        enforcer(
            micros -> {
              seen.add("first waits");
              seen.add(pay(other) ? "the other served" : "the other turned away");
            });
    assertThat(pay(first)).isTrue();
    assertThat(pay(first)).isTrue();
    assertThat(seen).containsExactly("first waits", "the other turned away");
    assertThat(pay(other)).as("once nobody waits, it may").isTrue();
    assertThat(seen).endsWith("the other waited");
  }

  @Test
  void everyCopyOfTheClassesFindsTheSameCounter() throws Exception {
    URL classes = JvmWaiting.class.getProtectionDomain().getCodeSource().getLocation();
    try (URLClassLoader copy =
        new URLClassLoader(new URL[] {classes}, ClassLoader.getSystemClassLoader().getParent())) {
      Class<?> copied = copy.loadClass(JvmWaiting.class.getName());
      assertThat(copied).isNotSameAs(JvmWaiting.class);
      java.lang.reflect.Method count = copied.getDeclaredMethod("count");
      count.setAccessible(true);
      AtomicInteger theirs = (AtomicInteger) count.invoke(null);
      assertThat(theirs).isSameAs(JvmWaiting.count());
    }
  }
}
