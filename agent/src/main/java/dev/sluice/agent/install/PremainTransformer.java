package dev.sluice.agent.install;

import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.IllegalClassFormatException;
import java.security.ProtectionDomain;

/**
 * The transformer {@code premain} registers: it hands every class to the {@link
 * ServletEntryTransformer}, which passes all but the container's entries at once.
 *
 * <p>As it sees every class the JVM loads, it also tells when {@code java.util.logging} has been set
 * up: its {@code LogManager} creates its root logger, of a class of its own, once the log manager is
 * chosen (loading {@code LogManager} itself says nothing: a subclass of it, the application's own,
 * loads it before the application names it). From then on the agent may log ({@link AgentLog}).
 * A server that never touches {@code java.util.logging} before it serves (Jetty logs through SLF4J)
 * is set up, for the agent's purpose, once it loads its own servlet entry: the container's code is
 * running, past whatever its {@code main} chose, so the rules load while it deploys rather than
 * at its first request, which would otherwise pass by {@code on_error} while they load.
 */
final class PremainTransformer implements ClassFileTransformer {
  static final String ROOT_LOGGER = "java/util/logging/LogManager$RootLogger";

  /** Told once the JVM's log manager is chosen and set up, or the container loads its entry. */
  interface LoggingWatch {
    void setUp();
  }

  private final LoggingWatch watch;
  private final ClassFileTransformer entries;

  PremainTransformer(LoggingWatch watch, ClassFileTransformer entries) {
    this.watch = watch;
    this.entries = entries;
  }

  @Override
  public byte[] transform(
      ClassLoader loader,
      String name,
      Class<?> classBeingRedefined,
      ProtectionDomain protectionDomain,
      byte[] classFile)
      throws IllegalClassFormatException {
    if (loader == null) {
      if (ROOT_LOGGER.equals(name) && classBeingRedefined == null) {
        watch.setUp();
      }
      return null;
    }
    byte[] entry = entries.transform(loader, name, classBeingRedefined, protectionDomain, classFile);
    if (entry != null) {
      watch.setUp();
    }
    return entry;
  }
}
