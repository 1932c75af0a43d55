package dev.sluice.agent.install;

import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.IllegalClassFormatException;
import java.security.ProtectionDomain;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;

/**
 * Lets the JVM start while Byte Buddy gets ready on a thread of its own. Registered in {@code
 * premain} before anything else, it passes every class that cannot be an entry into the servlet
 * layer ({@link CandidateFilter}) at once, and holds a candidate class (the container's filter
 * chain, {@code HttpServlet}) until the real transformer is there, so none is missed. A container
 * deploys its first web app long after the JVM starts; by then the wait is over.
 */
final class DeferredTransformer implements ClassFileTransformer {
  private static final Logger LOG = Logger.getLogger("dev.sluice.agent");
  private static final long WAIT_SECONDS = 60;
  private static final ClassLoader OWN_LOADER = DeferredTransformer.class.getClassLoader();

  private final CountDownLatch ready = new CountDownLatch(1);
  private volatile ClassFileTransformer delegate;
  private volatile boolean gaveUp;

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
    if (loader == null
        || loader == OWN_LOADER // Byte Buddy's set-up loads from here: it must never wait on itself
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
      if (ready.await(WAIT_SECONDS, TimeUnit.SECONDS)) {
        return true;
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (!gaveUp) {
      gaveUp = true;
      LOG.severe(
          "Sluice: instrumentation was not ready within "
              + WAIT_SECONDS
              + " s; "
              + name
              + " and classes loaded meanwhile are not limited");
    }
    return false;
  }
}
