package dev.sluice.agent.install;

import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.IllegalClassFormatException;
import java.security.ProtectionDomain;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Lets the JVM start while Byte Buddy gets ready on a thread of its own. Registered in {@code
 * premain} before anything else, it passes every class that cannot be an entry into the servlet
 * layer ({@link CandidateFilter}) at once, and holds a candidate class (the container's filter
 * chain, {@code HttpServlet}) until the real transformer is there, so none is missed. A container
 * deploys its first web app long after the JVM starts; by then the wait is over.
 *
 * <p>As it sees every class the JVM loads, it also tells when {@code java.util.logging} has been set
 * up: its {@code LogManager} creates its root logger, of a class of its own, once the log manager is
 * chosen (loading {@code LogManager} itself says nothing: a subclass of it, the application's own,
 * loads it before the application names it). From then on the agent may log ({@link AgentLog}).
 */
final class DeferredTransformer implements ClassFileTransformer {
  static final String ROOT_LOGGER = "java/util/logging/LogManager$RootLogger";
  private static final long WAIT_SECONDS = 60;
  private static final ClassLoader OWN_LOADER = DeferredTransformer.class.getClassLoader();

  /** Told once the JVM's log manager is chosen and set up. */
  interface LoggingWatch {
    void setUp();
  }

  /** How a candidate class waits for the real transformer; true once it is there. */
  interface Readiness {
    boolean await(long seconds) throws InterruptedException;
  }

  private final CountDownLatch ready = new CountDownLatch(1);
  private final LoggingWatch watch;
  private final Readiness readiness;
  private volatile ClassFileTransformer delegate;
  private volatile boolean gaveUp;

  DeferredTransformer(LoggingWatch watch) {
    this.watch = watch;
    this.readiness =
        new Readiness() {
          @Override
          public boolean await(long seconds) throws InterruptedException {
            return ready.await(seconds, TimeUnit.SECONDS);
          }
        };
  }

  /** For tests: candidate classes wait through {@code readiness}. */
  DeferredTransformer(LoggingWatch watch, Readiness readiness) {
    this.watch = watch;
    this.readiness = readiness;
  }

  /** Puts {@code transformer} in charge (null: instrumentation failed, pass everything). */
  void ready(ClassFileTransformer transformer) {
    delegate = transformer;
    ready.countDown();
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
    if (loader == OWN_LOADER // Byte Buddy's set-up loads from here: it must never wait on itself
        || !CandidateFilter.isCandidate(classFile)
        || !awaitReady(name)) {
      return null;
    }
    ClassFileTransformer transformer = delegate;
    return transformer == null
        ? null
        : transformer.transform(loader, name, classBeingRedefined, protectionDomain, classFile);
  }

  private boolean awaitReady(String name) {
    try {
      // Waited once in vain: no class waits again, each only checks.
      if (readiness.await(gaveUp ? 0 : WAIT_SECONDS)) {
        return true;
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (!gaveUp) {
      gaveUp = true;
      AgentLog.severe(
          "Sluice: instrumentation was not ready within "
              + WAIT_SECONDS
              + " s; "
              + name
              + " and classes loaded meanwhile are not limited",
          null);
    }
    return false;
  }
}
