package dev.sluice.agent.install;

import static net.bytebuddy.matcher.ElementMatchers.any;
import static net.bytebuddy.matcher.ElementMatchers.isAbstract;
import static net.bytebuddy.matcher.ElementMatchers.isBootstrapClassLoader;
import static net.bytebuddy.matcher.ElementMatchers.isPublic;
import static net.bytebuddy.matcher.ElementMatchers.isSynthetic;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.nameStartsWith;
import static net.bytebuddy.matcher.ElementMatchers.not;
import static net.bytebuddy.matcher.ElementMatchers.takesArgument;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import dev.sluice.support.Daemons;
import java.lang.instrument.Instrumentation;
import java.util.concurrent.atomic.AtomicInteger;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.dynamic.DynamicType;
import net.bytebuddy.matcher.ElementMatcher;
import net.bytebuddy.utility.JavaModule;

/**
 * Where the advice goes: the container's entry into the servlet layer, in both namespaces. The
 * container calls its filter chain ({@code FilterChain.doFilter}) before any application filter,
 * or the servlet ({@code Servlet.service}) directly when no filter is mapped; advising both, and
 * asking the gate only at the outermost call, checks every request before application code runs.
 *
 * <p>Matching is by name only (the agent cannot see servlet classes), and cheap first: types of the
 * JDK, of the agent itself and of class loaders that cannot see the servlet API are skipped before
 * any hierarchy is read. No class gains members, so already loaded classes can be retransformed
 * (runtime attach).
 */
final class ServletInstrumentation {
  private static final String[] NAMESPACES = {"javax.servlet", "jakarta.servlet"};

  private ServletInstrumentation() {}

  /**
   * For {@code premain}: returns at once; Byte Buddy gets ready on a thread of its own while the
   * JVM starts (see {@link DeferredTransformer}). No servlet class is loaded yet, so there is
   * nothing to retransform.
   */
  static void installDeferred(
      Instrumentation instrumentation, DeferredTransformer.LoggingWatch watch) {
    final DeferredTransformer deferred = new DeferredTransformer(watch);
    instrumentation.addTransformer(deferred, false);
    Daemons.start(
        "sluice-agent-instrument",
        new Runnable() {
          @Override
          public void run() {
            long start = System.nanoTime();
            try {
              deferred.ready(
                  builder(AgentBuilder.RedefinitionStrategy.DISABLED, new TransformLog())
                      .makeRaw());
              AgentLog.fine(
                  "Sluice: instrumentation ready after "
                      + (System.nanoTime() - start) / 1_000_000
                      + " ms");
            } catch (Throwable t) {
              deferred.ready(null);
              AgentLog.severe("Sluice: instrumentation failed; nothing is limited", t);
            }
          }
        });
  }

  /**
   * For a runtime attach: installs the transformer and retransforms the container classes already
   * loaded; returns how many it changed.
   */
  static int installNow(Instrumentation instrumentation) {
    TransformLog log = new TransformLog();
    builder(AgentBuilder.RedefinitionStrategy.RETRANSFORMATION, log)
        .with(CandidateFilter.decorator())
        .installOn(instrumentation);
    return log.transformed();
  }

  private static AgentBuilder builder(
      AgentBuilder.RedefinitionStrategy redefinition, TransformLog log) {
    AgentBuilder builder =
        new AgentBuilder.Default()
            .disableClassFormatChanges()
            .with(redefinition)
            .with(AgentBuilder.DescriptionStrategy.Default.POOL_ONLY)
            .with(log)
            .ignore(any(), isBootstrapClassLoader())
            .or(ignoredNames());
    BridgeCheck bridge = new BridgeCheck();
    for (String namespace : NAMESPACES) {
      builder =
          builder
              .type(new ServletEntryTypes(namespace, bridge))
              .transform(
                  new AgentBuilder.Transformer.ForAdvice()
                      .include(ServletInstrumentation.class.getClassLoader())
                      .advice(entryMethods(namespace), ServletEntryAdvice.class.getName()));
    }
    return builder;
  }

  private static ElementMatcher.Junction<TypeDescription> ignoredNames() {
    return nameStartsWith("java.")
        .or(nameStartsWith("jdk."))
        .or(nameStartsWith("sun."))
        .or(nameStartsWith("com.sun."))
        .or(nameStartsWith("net.bytebuddy."))
        .or(nameStartsWith("dev.sluice.agent."))
        .or(nameStartsWith("dev.sluice.internal."))
        .or(isSynthetic());
  }

  private static ElementMatcher.Junction<MethodDescription> entryMethods(String namespace) {
    return isPublic()
        .and(not(isAbstract()))
        .and(named("doFilter").or(named("service")))
        .and(takesArguments(2))
        .and(takesArgument(0, named(namespace + ".ServletRequest")))
        .and(takesArgument(1, named(namespace + ".ServletResponse")));
  }

  /** Counts the loaded classes it changed and logs each class it could not change. */
  private static final class TransformLog extends AgentBuilder.Listener.Adapter {
    private final AtomicInteger transformed = new AtomicInteger();

    @Override
    public void onTransformation(
        TypeDescription type,
        ClassLoader loader,
        JavaModule module,
        boolean loaded,
        DynamicType dynamicType) {
      if (loaded) {
        transformed.incrementAndGet();
      }
    }

    @Override
    public void onError(
        String typeName,
        ClassLoader loader,
        JavaModule module,
        boolean loaded,
        Throwable error) {
      AgentLog.warning(
          "Sluice: could not instrument "
              + typeName
              + " ("
              + error
              + "); requests through it are not limited");
    }

    int transformed() {
      return transformed.get();
    }
  }
}
