package dev.sluice.agent.command;

import dev.sluice.agent.AgentMain;
import dev.sluice.config.Check;
import dev.sluice.publish.Publish;
import dev.sluice.simulate.Simulate;
import dev.sluice.support.Nearest;
import java.io.File;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.Properties;
import net.bytebuddy.agent.ByteBuddyAgent;

/**
 * {@code java -jar sluice-agent.jar check <ratelimit.yaml>} validates a file exactly as the agent
 * and the Filter would read it; {@code simulate --rules <ratelimit.yaml> --log <access.log>}
 * replays an access log through those rules and reports what they would have denied
 * (docs/simulate.md); {@code push}, {@code history} and {@code rollback} publish a file in Redis
 * for every JVM whose own file says {@code rules_from: redis} (docs/publishing.md); {@code attach
 * <pid> [config=<path>]} loads the agent into a running JVM. Exit codes: 0 done, 1 invalid file, a
 * log no line of which fits its format, a version Redis does not keep or failed attach, 2 usage or
 * unreadable file, 3 Redis could not be reached.
 */
public final class Commands {
  private static final String JAR = "java -jar sluice-agent.jar";

  private Commands() {}

  public static int run(String[] args, File agentJar) {
    return run(args, agentJar, System.out, System.err);
  }

  static int run(String[] args, File agentJar, PrintStream out, PrintStream err) {
    String command = args.length == 0 ? "" : args[0];
    String[] rest = args.length == 0 ? args : Arrays.copyOfRange(args, 1, args.length);
    if ("check".equals(command)) {
      return Check.run(JAR + " check", rest, out, err);
    }
    if ("simulate".equals(command)) {
      return Simulate.run(JAR + " simulate", rest, out, err);
    }
    if (Publish.handles(command)) {
      return Publish.run(JAR, command, rest, out, err);
    }
    if ("attach".equals(command) && (rest.length == 1 || rest.length == 2)) {
      return attach(agentJar, rest[0], rest.length == 2 ? rest[1] : null, out, err);
    }
    if (!command.isEmpty() && !"attach".equals(command)) {
      err.println(
          "unknown command \""
              + command
              + "\""
              + Nearest.hint(command, "check", "simulate", "push", "history", "rollback", "attach"));
    }
    err.println("usage: " + JAR + " check <ratelimit.yaml>");
    err.println(
        "       "
            + JAR
            + " simulate --rules <ratelimit.yaml> --log <access.log> [--format F] [--json]"
            + " [--top N]");
    for (String line : Publish.usage(JAR)) {
      err.println("       " + line);
    }
    err.println("       " + JAR + " attach <pid> [config=<path to ratelimit.yaml>]");
    return 2;
  }

  private static final String FIND_PID =
      " (jps -l lists the JVMs you may attach to, with their main class or jar)";

  /**
   * {@code argument} with its {@code config=} path made absolute here: the target JVM would read a
   * relative one against its own working directory, which is seldom the attaching shell's.
   *
   * @throws IllegalArgumentException when the file named does not exist
   */
  static String withAbsoluteConfig(String argument) {
    if (argument == null) {
      return null;
    }
    String[] pairs = argument.split(",", -1);
    for (int i = 0; i < pairs.length; i++) {
      String trimmed = pairs[i].trim();
      if (trimmed.startsWith("config=") && trimmed.length() > "config=".length()) {
        Path file = Paths.get(trimmed.substring("config=".length())).toAbsolutePath().normalize();
        if (!Files.isRegularFile(file)) {
          throw new IllegalArgumentException(
              "no file " + file + ": config= names the ratelimit.yaml to load");
        }
        pairs[i] = "config=" + file;
      }
    }
    return String.join(",", pairs);
  }

  private static int attach(
      File agentJar, String pid, String argument, PrintStream out, PrintStream err) {
    if (!pid.matches("[0-9]+")) {
      err.println("attach: the process id must be a number, got \"" + pid + "\"" + FIND_PID);
      return 2;
    }
    if (new File("/proc/self").isDirectory() && !new File("/proc", pid).isDirectory()) {
      err.println("attach: no such process " + pid + FIND_PID);
      return 2;
    }
    String absolute;
    try {
      absolute = withAbsoluteConfig(argument);
    } catch (IllegalArgumentException e) {
      err.println("attach: " + e.getMessage());
      return 2;
    }
    try {
      ByteBuddyAgent.attach(agentJar, pid, absolute);
    } catch (RuntimeException e) {
      err.println(
          "attach: could not load the agent into process "
              + pid
              + ": "
              + e
              + (e.getCause() == null ? "" : " (" + e.getCause() + ")")
              + "\n  It must run as the same user, on a JDK (not a JRE); Java 21 and later warn"
              + " unless the target runs with -XX:+EnableDynamicAgentLoading.");
      return 1;
    }
    String result = resultIn(pid);
    if (result == null) {
      out.println(
          "Sluice agent loaded into process " + pid + "; its log says which rules are in force");
      return 0;
    }
    if (result.startsWith("failed")) {
      err.println("attach: the agent in process " + pid + " " + result);
      return 1;
    }
    out.println("Sluice agent in process " + pid + ": " + result);
    return 0;
  }

  /**
   * What the agent in {@code pid} says the attach did (see {@code AgentMain}), read from its system
   * properties; null when that cannot be read.
   */
  private static String resultIn(String pid) {
    try {
      // The JDK's attach API, found as ByteBuddyAgent.attach found it (tools.jar on Java 8).
      Class<?> type = ByteBuddyAgent.AttachmentProvider.DEFAULT.attempt().getVirtualMachineType();
      Object vm = type.getMethod("attach", String.class).invoke(null, pid);
      try {
        Properties properties = (Properties) type.getMethod("getSystemProperties").invoke(vm);
        // A constant, inlined: this class cannot see AgentMain's loader, nor needs to.
        return properties.getProperty(AgentMain.ATTACH_RESULT);
      } finally {
        type.getMethod("detach").invoke(vm);
      }
    } catch (Exception | LinkageError e) {
      return null; // the agent's own log still says what it did
    }
  }
}
