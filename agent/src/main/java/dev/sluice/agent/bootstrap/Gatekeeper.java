package dev.sluice.agent.bootstrap;

/**
 * The bridge between advice inlined into servlet containers and the agent's isolated class loader.
 * JDK types only: it sits on the boot class path, where every web app's classes can reach it and
 * where nothing it holds can pin a web app's class loader.
 *
 * <p>A request enters the servlet layer through a chain of nested calls (the container's filter
 * chain, each filter's call down the chain, the servlet's service); only the outermost call on a
 * thread asks the gate at entry; each call of a servlet's {@code service}, where the application's
 * filters (and so its login) have run, asks it again for the rules keyed by the user. The depth is
 * a per-thread counter of JDK type, so Tomcat's leak detection never flags it when a web app is
 * undeployed.
 */
public final class Gatekeeper {
  private static final Gate OPEN =
      new Gate() {
        @Override
        public boolean rejected(Object request, Object response) {
          return false;
        }

        @Override
        public boolean rejectedAtServlet(Object request, Object response) {
          return false;
        }
      };

  /** The name of {@code Servlet.service}; the other advised method is {@code doFilter}. */
  private static final String SERVICE = "service";

  private static final ThreadLocal<int[]> DEPTH =
      new ThreadLocal<int[]>() {
        @Override
        protected int[] initialValue() {
          return new int[1];
        }
      };

  private static volatile Gate gate = OPEN;

  private Gatekeeper() {}

  /**
   * Called on entry to every advised method, named {@code method}; true means skip its body (a 429
   * was written).
   */
  public static boolean enter(Object request, Object response, String method) {
    int[] depth = DEPTH.get();
    Gate in = gate;
    if (depth[0]++ == 0 && in.rejected(request, response)) {
      return true;
    }
    return SERVICE.equals(method) && in.rejectedAtServlet(request, response);
  }

  /** Called on exit of every advised method, also when its body was skipped or threw. */
  public static void exit() {
    int[] depth = DEPTH.get();
    if (depth[0] > 0) {
      depth[0]--;
    }
  }

  /** Puts {@code next} in charge of every request from now on. */
  public static void install(Gate next) {
    gate = next;
  }
}
