package dev.sluice.agent.install;

import dev.sluice.agent.bootstrap.Gatekeeper;
import dev.sluice.agent.gate.ServletGate;
import dev.sluice.config.ConfigSource;
import dev.sluice.config.OnInvalidConfig;
import dev.sluice.config.StartRefusedException;
import java.lang.instrument.Instrumentation;
import java.util.Map;
import java.util.logging.Logger;

/**
 * Starts the agent inside its isolated class loader: reads the agent argument, starts loading the
 * rules, hands the gate to the boot-class-path bridge and instruments the servlet containers.
 * Called by {@code AgentMain} for {@code -javaagent} and for a runtime attach alike.
 */
public final class Installer {
  private static final Logger LOG = Logger.getLogger("dev.sluice.agent");

  private Installer() {}

  /**
   * Byte Buddy's safe mode, under its relocated name: it then never reaches for {@code
   * sun.misc.Unsafe}, which the agent does not need (its advice is inlined, nothing is injected)
   * and which Java 24 and later warn about on the application's console.
   */
  static final String BYTE_BUDDY_SAFE_MODE = "dev.sluice.internal.bytebuddy.safe";

  public static void install(Instrumentation instrumentation, String argument, boolean premain) {
    long start = System.nanoTime();
    if (System.getProperty(BYTE_BUDDY_SAFE_MODE) == null) {
      System.setProperty(BYTE_BUDDY_SAFE_MODE, "true");
    }
    AgentArgs args = AgentArgs.parse(argument);
    for (String problem : args.problems()) {
      LOG.warning("Sluice: " + problem);
    }
    Map<String, String> environment = System.getenv();
    ConfigSource source =
        ConfigSource.locate(args.config(), environment, ClassLoader.getSystemClassLoader());
    Gatekeeper.install(
        start(source, OnInvalidConfig.locate(args.onInvalidConfig(), environment), premain));
    String instrumented = "";
    if (premain) {
      ServletInstrumentation.installDeferred(instrumentation);
    } else {
      int retransformed = ServletInstrumentation.installNow(instrumentation);
      instrumented = "; " + retransformed + " loaded servlet classes instrumented";
    }
    LOG.info(
        "Sluice: agent "
            + (premain ? "started" : "attached")
            + " in "
            + (System.nanoTime() - start) / 1_000_000
            + " ms, rules from "
            + source
            + instrumented);
  }

  /**
   * The gate of the rules of {@code source}. When {@code onInvalid} refuses a start without them
   * and they cannot be put in force, a JVM starting with the agent exits with status 1 after saying
   * why: an orchestrator sees a failed start (where an exception thrown from premain would abort
   * the JVM with a native stack dump). A JVM attached to is already serving: it runs on, as
   * unlimited as before, and the exception says why the agent did not start.
   */
  private static ServletGate start(
      ConfigSource source, OnInvalidConfig onInvalid, boolean premain) {
    try {
      return ServletGate.start(source, onInvalid);
    } catch (StartRefusedException e) {
      if (!premain) {
        throw e;
      }
      System.err.println(e.getMessage());
      System.err.println("Sluice: the JVM exits with status 1");
      System.exit(1);
      throw e; // not reached; System.exit does not return
    }
  }
}
