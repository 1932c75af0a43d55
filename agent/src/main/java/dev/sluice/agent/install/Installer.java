package dev.sluice.agent.install;

import dev.sluice.agent.bootstrap.Gatekeeper;
import dev.sluice.agent.gate.ServletGate;
import dev.sluice.config.ConfigSource;
import dev.sluice.config.OnInvalidConfig;
import dev.sluice.config.StartRefusedException;
import java.io.File;
import java.lang.instrument.Instrumentation;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * Starts the agent inside its isolated class loader: reads the agent argument, hands the gate to
 * the boot-class-path bridge and instruments the servlet containers. Called by {@code AgentMain}
 * for {@code -javaagent} and for a runtime attach alike.
 *
 * <p>From {@code premain} it leaves the JVM's global state to the application: no {@code
 * java.util.logging}, no platform MBean server, until the application has set them up its own way
 * (WildFly's JBoss Modules installs JBoss LogManager from its {@code main}, and refuses to boot if
 * someone was first). Its lines wait in {@link AgentLog}; the rules load once the application has
 * set up {@code java.util.logging} itself, or at its first request.
 */
public final class Installer {
  private Installer() {}

  private static final Runnable NOTHING =
      new Runnable() {
        @Override
        public void run() {}
      };

  /** Before the rules load: the server's logging is set up by then, the agent's lines may go. */
  private static final Runnable OPEN_LOG =
      new Runnable() {
        @Override
        public void run() {
          AgentLog.open();
        }
      };

  /** What a refused start says, which an attach into a serving JVM refuses nothing with. */
  private static final String REFUSING =
      "; refusing to start (" + OnInvalidConfig.NAME + "=refuse_start)";

  /** The gate in charge and where its rules come from: a second attach may replace them. */
  private static ServletGate gate;

  private static ConfigSource source;

  /**
   * Installs the agent; returns what a runtime attach did, for the attaching command to say (the
   * JVM started with {@code -javaagent} has nobody to tell).
   */
  public static synchronized String install(
      Instrumentation instrumentation, String argument, boolean premain) {
    long start = System.nanoTime();
    String jboss = JBossModules.exposeBridge(premain);
    if (jboss != null) {
      AgentLog.warning(jboss);
    }
    String osgi =
        OsgiBootDelegation.exposeBridge(
            premain, System.getProperties(), ClassLoader.getSystemClassLoader());
    if (osgi != null) {
      AgentLog.warning(osgi);
    }
    AgentArgs args = AgentArgs.parse(argument);
    OnInvalidConfig onInvalid =
        OnInvalidConfig.locate(
            args.onInvalidConfig(),
            System.getenv(),
            new Consumer<String>() {
              @Override
              public void accept(String warning) {
                AgentLog.warning(warning); // held until the application set up its logging
              }
            });
    final AtomicReference<String> started = new AtomicReference<String>();
    source = sourceOf(args);
    final ServletGate next =
        gateOf(
            onInvalid,
            new Runnable() {
              @Override
              public void run() {
                String line = started.getAndSet(null);
                if (line != null) {
                  AgentLog.info(line);
                }
              }
            });
    if (onInvalid == OnInvalidConfig.REFUSE_START) {
      awaitRules(next, premain); // before anything is installed: a refused start leaves nothing
    }
    Gatekeeper.install(next);
    gate = next;
    String instrumented = "";
    if (premain) {
      ServletInstrumentation.installAtStart(
          instrumentation,
          new PremainTransformer.LoggingWatch() {
            @Override
            public void setUp() {
              next.begin();
            }
          });
      if (loggingSetUp(instrumentation)) {
        next.begin();
      }
    } else {
      next.begin(); // the application serves already: its set-up is done
      int retransformed = ServletInstrumentation.installNow(instrumentation);
      instrumented = "; " + retransformed + " loaded servlet classes instrumented";
    }
    String line =
        "Sluice: agent "
            + (premain ? "started" : "attached")
            + " in "
            + (System.nanoTime() - start) / 1_000_000
            + " ms, rules from "
            + source
            + instrumented;
    if (premain) {
      // Said once the application serves, when its logging is surely set up: Spring Boot, for one,
      // drops what is logged while it sets up its own, after java.util.logging's.
      started.set(line);
    } else {
      AgentLog.info(line);
    }
    return "attached, rules from " + source + instrumented + missing(args);
  }

  /**
   * A runtime attach to a JVM where the agent runs already: a {@code config=} other than the one in
   * force puts that file's rules in force in their place (the old limiter closed), once they are
   * loaded and valid; otherwise nothing changes, and the rules in force stay. Returns what it did,
   * for the attaching command to say: {@code failed: ...} with the file's errors when its rules
   * could not be put in force.
   */
  public static synchronized String attachAgain(String argument) {
    AgentArgs args = AgentArgs.parse(argument);
    ConfigSource was = source;
    if (gate == null || args.config() == null || args.config().equals(was.name())) {
      return "already running, rules from "
          + was
          + "; nothing changed"
          + (args.config() == null ? " (config=<path> puts another file's rules in force)" : "");
    }
    ConfigSource next = sourceOf(args);
    // Refused unless valid: a file with an error must not turn a limited JVM into an unlimited one.
    ServletGate candidate =
        ServletGate.prepare(next, OnInvalidConfig.REFUSE_START, OPEN_LOG, NOTHING);
    try {
      candidate.awaitRules();
    } catch (StartRefusedException e) {
      String why = e.getMessage().replace(REFUSING, "");
      AgentLog.warning(
          "Sluice: attached again with " + next + ", whose rules were not put in force: " + why);
      return "failed: the rules from "
          + next
          + " were not put in force, those from "
          + was
          + " stay; nothing changed: "
          + why;
    }
    ServletGate old = gate;
    source = next;
    gate = candidate;
    Gatekeeper.install(candidate);
    old.close();
    AgentLog.info("Sluice: attached again: rules now from " + next + ", no longer from " + was);
    return "already running; rules now from " + next + ", no longer from " + was;
  }

  /** Where the rules {@code args} name are read from; the argument's problems said once. */
  private static ConfigSource sourceOf(AgentArgs args) {
    for (String problem : args.problems()) {
      AgentLog.warning("Sluice: " + problem);
    }
    return ConfigSource.locate(args.config(), System.getenv(), ClassLoader.getSystemClassLoader());
  }

  /** A gate of the rules {@link #source} names; {@code serving} runs once the app served. */
  private static ServletGate gateOf(OnInvalidConfig onInvalid, Runnable serving) {
    return ServletGate.prepare(source, onInvalid, OPEN_LOG, serving);
  }

  /** "; but FILE does not exist here" when the file {@code config=} names is not in this JVM. */
  private static String missing(AgentArgs args) {
    return args.config() == null || new File(args.config()).isFile()
        ? ""
        : "; but " + args.config() + " does not exist here: nothing is limited until it does";
  }

  /**
   * True if something set up {@code java.util.logging} before the agent (another agent): the agent
   * cannot see that happen, and the log manager is chosen anyway.
   */
  private static boolean loggingSetUp(Instrumentation instrumentation) {
    String name = PremainTransformer.ROOT_LOGGER.replace('/', '.');
    for (Class<?> loaded : instrumentation.getAllLoadedClasses()) {
      if (loaded.getClassLoader() == null && loaded.getName().equals(name)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Waits for the rules to be in force. When they cannot be, a JVM starting with the agent exits
   * with status 1 after saying why: an orchestrator sees a failed start (where an exception thrown
   * from premain would abort the JVM with a native stack dump). A JVM attached to is already
   * serving: it runs on, as unlimited as before, and the exception says why the agent did not
   * start. This loads the rules in premain, so it opens the agent's logging there too.
   */
  private static void awaitRules(ServletGate gate, boolean premain) {
    try {
      gate.awaitRules();
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
