package dev.sluice.agent.install;

import java.lang.instrument.Instrumentation;

/**
 * Registers the {@link ServletEntryTransformer} with the JVM: at its start, or in a JVM that serves
 * already, where the container's entry classes are loaded and are retransformed (the advice adds
 * no member, so that is allowed).
 */
final class ServletInstrumentation {
  private ServletInstrumentation() {}

  /**
   * For {@code premain}: no servlet class is loaded yet, so there is nothing to retransform; the
   * transformer is ready at once (nothing of it is loaded until the first candidate class).
   */
  static void installAtStart(Instrumentation instrumentation, PremainTransformer.LoggingWatch watch) {
    instrumentation.addTransformer(
        new PremainTransformer(watch, new ServletEntryTransformer()), false);
  }

  /**
   * For a runtime attach: installs the transformer and retransforms the container classes already
   * loaded; returns how many it changed. A class that cannot be changed is logged and left alone.
   */
  static int installNow(Instrumentation instrumentation) {
    ServletEntryTransformer transformer = new ServletEntryTransformer();
    instrumentation.addTransformer(transformer, true);
    for (Class<?> loaded : instrumentation.getAllLoadedClasses()) {
      if (transformer.isEntry(loaded) && instrumentation.isModifiableClass(loaded)) {
        try {
          instrumentation.retransformClasses(loaded);
        } catch (Throwable t) {
          AgentLog.warning(ServletEntryTransformer.couldNotInstrument(loaded.getName(), t));
        }
      }
    }
    return transformer.retransformed();
  }
}
