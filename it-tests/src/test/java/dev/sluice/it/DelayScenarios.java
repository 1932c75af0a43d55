package dev.sluice.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** A rule's delay through the Filter in a real container ({@link DelayChecks}). */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class DelayScenarios {
  private Deployment deployment;
  private Http http;

  /** The container under test; called once. */
  abstract Container container();

  @BeforeAll
  void start() throws Exception {
    deployment =
        Deployment.start(
            container(),
            "client_ip: { trusted_proxies: [127.0.0.1/32] }\n"
                + AdminChecks.SECTION
                + DelayChecks.MAX_WAITING
                + "rules:\n"
                + DelayChecks.RULE
                + HangUpChecks.RULE);
    http = deployment.http();
  }

  @AfterAll
  void stop() throws Exception {
    if (deployment != null) {
      deployment.stop();
    }
  }

  @Test
  void aBurstIsServedAtTheRateUpToMaxWaitAndTheRestDeniedAtOnce() throws Exception {
    DelayChecks.assertABurstIsServedAtTheRateAndTheRestDeniedAtOnce(http, "10.9.0.1");
  }

  /**
   * The container runs in this JVM, so its threads and its log are in sight: the thread that held
   * the hung-up request has left the waiting room, alive, by the time the next slot is served, and
   * nothing was logged above INFO, nor with a stack trace, by the container or by Sluice.
   */
  @Test
  void aClientThatHangsUpWhileWaitingLeavesNoThreadNorErrorBehind() throws Exception {
    List<LogRecord> logged = new CopyOnWriteArrayList<>();
    Handler handler =
        new Handler() {
          @Override
          public void publish(LogRecord record) {
            logged.add(record);
          }

          @Override
          public void flush() {}

          @Override
          public void close() {}
        };
    Logger root = Logger.getLogger("");
    root.addHandler(handler);
    try {
      Thread[] holder = new Thread[1];
      HangUpChecks.assertAHungUpRequestKeepsItsSlotAndLeavesNothingWaiting(
          http,
          "10.9.2.1",
          new HangUpChecks.ServerSide() {
            @Override
            public void whileWaiting() {
              List<Thread> waiting = waitingInSluice();
              assertThat(waiting).as("the one server thread waiting").hasSize(1);
              holder[0] = waiting.get(0);
            }

            @Override
            public void afterwards() {
              assertThat(waitingInSluice()).as("no server thread left waiting").isEmpty();
              assertThat(holder[0].isAlive()).as("back in the pool, not ended").isTrue();
            }
          });
      assertThat(logged)
          .as("logged while the client hung up and after")
          .noneMatch(r -> r.getLevel().intValue() > Level.INFO.intValue() || r.getThrown() != null);
    } finally {
      root.removeHandler(handler);
    }
  }

  /** The threads holding a request in Sluice's waiting room now. */
  private static List<Thread> waitingInSluice() {
    return Thread.getAllStackTraces().entrySet().stream()
        .filter(e -> e.getKey() != Thread.currentThread() && waitingInSluice(e.getValue()))
        .map(Map.Entry::getKey)
        .collect(Collectors.toList());
  }

  private static boolean waitingInSluice(StackTraceElement[] stack) {
    return Arrays.stream(stack)
        .anyMatch(f -> f.getClassName().equals("dev.sluice.http.WaitingRoom"));
  }
}
