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

import java.lang.instrument.Instrumentation;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Logger;
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
  private static final Logger LOG = Logger.getLogger("dev.sluice.agent");
  private static final String[] NAMESPACES = {"javax.servlet", "jakarta.servlet"};

  private ServletInstrumentation() {}

  /**
   * Installs the transformer and returns how many already loaded classes it changed. At premain no
   * servlet class is loaded yet, and skipping the search of loaded classes saves start-up time; a
   * runtime attach retransforms the container classes already in use.
   */
  static int install(Instrumentation instrumentation, boolean premain) {
    TransformLog log = new TransformLog();
    AgentBuilder builder =
        new AgentBuilder.Default()
            .disableClassFormatChanges()
            .with(
                premain
                    ? AgentBuilder.RedefinitionStrategy.DISABLED
                    : AgentBuilder.RedefinitionStrategy.RETRANSFORMATION)
            .with(AgentBuilder.DescriptionStrategy.Default.POOL_ONLY)
            .with(CandidateFilter.decorator())
            .with(log)
            .ignore(any(), isBootstrapClassLoader())
            .or(ignoredNames());
    for (String namespace : NAMESPACES) {
      builder =
          builder
              .type(new ServletEntryTypes(namespace))
              .transform(
                  new AgentBuilder.Transformer.ForAdvice()
                      .include(ServletInstrumentation.class.getClassLoader())
                      .advice(entryMethods(namespace), ServletEntryAdvice.class.getName()));
    }
    builder.installOn(instrumentation);
    return log.transformed();
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

  /** Counts what was changed and logs what could not be, once per type. */
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
      LOG.warning(
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
