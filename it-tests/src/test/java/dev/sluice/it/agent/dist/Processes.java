package dev.sluice.it.agent.dist;

import dev.sluice.it.jvm.ChildJvm;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Stopping a server JVM the way an operator does, and telling a clean stop from a kill. */
final class Processes {
  private Processes() {}

  /**
   * Sends SIGTERM and waits for the process to exit by itself. A JVM that outlives {@code timeout}
   * (a non-daemon thread of the agent, a hung shutdown hook) is killed and fails the test: unlike
   * {@link ChildJvm#stop()}, this never hides the kill.
   */
  static void stopGracefully(ChildJvm jvm, Duration timeout) throws InterruptedException {
    ProcessHandle process = ProcessHandle.of(jvm.pid()).orElse(null);
    if (process == null) {
      throw new AssertionError("the server JVM had already exited; its output:\n" + jvm.output());
    }
    process.destroy();
    try {
      process.onExit().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      throw jvm.failure("did not stop within " + timeout.toMillis() + " ms of SIGTERM");
    } catch (ExecutionException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * Stops a server started by a script that runs it as a child process (WildFly's standalone.sh,
   * Payara's asadmin) as a service manager would: SIGTERM to the script, which passes it on, then
   * waits for the script and the server ({@code server} names it) to exit by themselves; a server
   * still running after {@code timeout} is killed and fails the test.
   */
  static void stopScriptAndServer(ChildJvm script, String server, Duration timeout)
      throws InterruptedException {
    ProcessHandle process = ProcessHandle.of(script.pid()).orElse(null);
    if (process == null) {
      throw new AssertionError("the script had already exited; its output:\n" + script.output());
    }
    List<ProcessHandle> children = process.descendants().toList();
    stopGracefully(script, timeout);
    for (ProcessHandle left : children) {
      try {
        left.onExit().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
      } catch (TimeoutException e) {
        left.destroyForcibly();
        throw new AssertionError(server + " outlived its script; its output:\n" + script.output());
      } catch (ExecutionException e) {
        throw new IllegalStateException(e);
      }
    }
  }

  /**
   * The server's JVM: the first java process under {@code process} (a script that starts the
   * server as its child: WildFly's standalone.sh, Payara's asadmin, itself a JVM), else {@code
   * process} itself if it runs java (a script that execs it: Liberty's bin/server).
   */
  static long java(ChildJvm process) {
    ProcessHandle self = ProcessHandle.of(process.pid()).orElseThrow();
    return Stream.concat(self.descendants(), Stream.of(self))
        .filter(p -> p.info().command().map(c -> c.endsWith("/java")).orElse(false))
        .findFirst()
        .orElseThrow(() -> process.failure("runs no java process"))
        .pid();
  }

  /**
   * The output of an exited process once it holds {@code fragment}: the reader thread may still be
   * draining the pipe when the process is gone. Waits at most 10 s.
   */
  static String awaitOutput(ChildJvm jvm, String fragment) throws InterruptedException {
    for (int i = 0; i < 100; i++) {
      String output = jvm.output();
      if (output.contains(fragment)) {
        return output;
      }
      Thread.sleep(100);
    }
    throw new AssertionError("no \"" + fragment + "\" in the output:\n" + jvm.output());
  }
}
