package dev.sluice.agent.install;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class DeferredTransformerTest {
  /** Bytes holding an entry method's descriptor: what CandidateFilter holds back. */
  private static final byte[] CANDIDATE =
      "(Ljavax/servlet/ServletRequest;Ljavax/servlet/ServletResponse;)V".getBytes(US_ASCII);

  private final ClassLoader app = new URLClassLoader(new URL[0], null);

  @Test
  void afterWaitingInVainOnceACandidateOnlyChecksAndPassesAtOnce() throws Exception {
    List<Long> waits = new ArrayList<>();
    DeferredTransformer deferred = waitingIn(waits, false);

    assertThat(deferred.transform(app, "a/Chain", null, null, CANDIDATE)).isNull();
    assertThat(deferred.transform(app, "b/Chain", null, null, CANDIDATE)).isNull();
    assertThat(deferred.transform(app, "c/Chain", null, null, CANDIDATE)).isNull();

    assertThat(waits).as("seconds each candidate waited").containsExactly(60L, 0L, 0L);
  }

  @Test
  void aClassThatCannotBeAnEntryNeverWaits() throws Exception {
    List<Long> waits = new ArrayList<>();
    DeferredTransformer deferred = waitingIn(waits, true);

    assertThat(deferred.transform(app, "a/Plain", null, null, "()V".getBytes(US_ASCII))).isNull();

    assertThat(waits).isEmpty();
  }

  /** A transformer whose candidates record how long they wait, and find it {@code ready} or not. */
  private static DeferredTransformer waitingIn(List<Long> waits, boolean ready) {
    return new DeferredTransformer(
        () -> {},
        seconds -> {
          waits.add(seconds);
          return ready;
        });
  }

  @Test
  void tellsWhenTheJdksLogManagerMakesItsRootLoggerNotWhenItIsLoaded() throws Exception {
    AtomicInteger told = new AtomicInteger();
    DeferredTransformer deferred = new DeferredTransformer(told::incrementAndGet, seconds -> true);

    // An application's own LogManager subclass loads LogManager before it names its class.
    deferred.transform(null, "java/util/logging/LogManager", null, null, new byte[0]);
    deferred.transform(app, "java/util/logging/LogManager$RootLogger", null, null, new byte[0]);
    assertThat(told).as("told before the log manager made its root logger").hasValue(0);

    deferred.transform(null, "java/util/logging/LogManager$RootLogger", null, null, new byte[0]);
    assertThat(told).hasValue(1);
  }
}
