package dev.sluice.it.agent.robust;

import dev.sluice.it.agent.AgentServer;
import dev.sluice.it.jvm.ChildJvm;
import java.time.Duration;

/** Waiting for what a container JVM logs: the agent logs from threads of its own. */
final class Logs {
  /** Long enough for a loaded machine; a line that comes at all comes within a second or two. */
  static final Duration WITHIN = Duration.ofSeconds(10);

  private static final long POLL_MILLIS = 25;

  private Logs() {}

  /**
   * Waits until the JVM's output contains {@code text}; fails quoting the output if it never does.
   */
  static void await(AgentServer server, String text) throws InterruptedException {
    await(server.jvm(), text);
  }

  /** As above, for any JVM whose lines the test reads. */
  static void await(ChildJvm jvm, String text) throws InterruptedException {
    long deadline = System.nanoTime() + WITHIN.toNanos();
    for (long i = 0; i <= WITHIN.toMillis() / POLL_MILLIS; i++) {
      if (jvm.output().contains(text)) {
        return;
      }
      if (System.nanoTime() > deadline) {
        break;
      }
      Thread.sleep(POLL_MILLIS);
    }
    throw new AssertionError(
        "no \""
            + text
            + "\" logged within "
            + WITHIN.toMillis()
            + " ms; the JVM's output:\n"
            + jvm.output());
  }
}
