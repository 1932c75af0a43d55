package dev.sluice.support;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.LogCapture;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Logger;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** How often a failure is logged: by its class and where it happened, once a period. */
class FailuresTest {
  private static final String LOGGER = "dev.sluice.test.failures";
  private static final long PERIOD = TimeUnit.MINUTES.toNanos(Failures.PERIOD_MINUTES);

  private final AtomicLong nanos = new AtomicLong(123_456_789L);
  private final Failures failures = new Failures(quiet(), nanos::get);
  private final LogCapture log = LogCapture.of(LOGGER);
  private final RuntimeException fault = real();

  private static Logger quiet() {
    Logger logger = Logger.getLogger(LOGGER);
    logger.setUseParentHandlers(false); // the stack traces would only clutter the build's output
    return logger;
  }

  @AfterEach
  void stopCapturing() {
    log.close();
  }

  /** An exception made at one line of code, whatever its message: one site. */
  private static RuntimeException junk(String message) {
    return new IllegalArgumentException(message);
  }

  private static RuntimeException real() {
    return new IllegalStateException("the store is closed");
  }

  /** The same failure {@code times} times, as a fault that hits every request. */
  private void decisionsFail(int times) {
    for (int i = 0; i < times; i++) {
      failures.log("could not decide", fault);
    }
  }

  @Test
  void junkWithEveryMessageDifferentLeavesRealFailuresLogged() {
    for (int i = 0; i < 100; i++) {
      failures.log("could not decide", junk("bad header value #" + i));
    }
    failures.log("the real one", real());
    assertThat(log.messages()).hasSize(2);
    assertThat(log.messages().get(1)).startsWith("the real one");
  }

  @Test
  void theMessageIsNoPartOfTheKindButTheSiteIs() {
    for (int i = 0; i < 5; i++) {
      failures.log("junk", junk("message " + i));
    }
    assertThat(log.messages()).as("distinct messages, one site").hasSize(1);
    List<String> kinds =
        Stream.of("a", "b").map(m -> Failures.kindOf(junk(m))).collect(Collectors.toList());
    assertThat(kinds.get(0))
        .isEqualTo(kinds.get(1))
        .startsWith(IllegalArgumentException.class.getName() + " at ")
        .contains("FailuresTest.junk(FailuresTest.java:")
        .doesNotContain(": a");
    assertThat(Failures.kindOf(new IllegalArgumentException("a")))
        .as("the same class made elsewhere")
        .isNotEqualTo(kinds.get(0));
  }

  @Test
  void aSiteLogsOnceAPeriodAndThenSaysHowManyItSuppressed() {
    decisionsFail(10);
    assertThat(log.messages()).hasSize(1);
    nanos.addAndGet(PERIOD - 1);
    decisionsFail(1);
    assertThat(log.messages()).as("still the same period").hasSize(1);

    nanos.addAndGet(1);
    decisionsFail(1);
    List<String> logged = log.messages();
    assertThat(logged).hasSize(2);
    assertThat(logged.get(1)).startsWith("could not decide").contains("; 10 similar suppressed");
    nanos.addAndGet(PERIOD);
    decisionsFail(1);
    assertThat(log.messages()).hasSize(3);
    assertThat(log.messages().get(2)).doesNotContain("suppressed");
  }

  @Test
  void warningsOfAKindAreRateLimitedAlike() {
    for (int i = 0; i < 10; i++) {
      failures.warn("committed", "a response was committed already");
    }
    assertThat(log.messages()).hasSize(1);
    nanos.addAndGet(PERIOD);
    failures.warn("committed", "a response was committed already");
    assertThat(log.messages()).hasSize(2);
    assertThat(log.messages().get(1)).contains("; 9 similar suppressed");
  }
}
