package dev.sluice.agent.install;

import dev.sluice.agent.bootstrap.Gatekeeper;
import net.bytebuddy.asm.Advice;

/**
 * Inlined at the top and bottom of the container's entry into the servlet layer ({@code
 * FilterChain.doFilter} and {@code Servlet.service}, javax and jakarta alike). It names only {@code
 * Object} and the boot-class-path bridge, so the same bytes are valid in any container and either
 * namespace; compiled for Java 8 with no lambdas or string concatenation, so it can be inlined into
 * old class files. The method's name, a constant in the inlined code, tells the servlet's {@code
 * service} from the chain's {@code doFilter}. A failure inside it is suppressed: the request
 * proceeds.
 */
public final class ServletEntryAdvice {
  private ServletEntryAdvice() {}

  /** Returns true when the request was rejected: Byte Buddy then skips the original body. */
  @Advice.OnMethodEnter(skipOn = Advice.OnNonDefaultValue.class, suppress = Throwable.class)
  public static boolean enter(
      @Advice.Argument(0) Object request,
      @Advice.Argument(1) Object response,
      @Advice.Origin("#m") String method) {
    return Gatekeeper.enter(request, response, method);
  }

  @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
  public static void exit() {
    Gatekeeper.exit();
  }
}
