package dev.sluice.agent.bootstrap;

/**
 * The agent's decision on one request, reached from advice inlined into container classes. It
 * lives on the boot class path with {@link Gatekeeper}, so every class loader sees one copy.
 */
public interface Gate {
  /**
   * Returns true when the request was answered (a 429 written) and the advised method must not
   * run. Never throws: any failure lets the request through.
   */
  boolean rejected(Object request, Object response);

  /**
   * As {@link #rejected}, for the rules keyed by the user, when the request reaches its servlet:
   * after the application's filters, so after its own login.
   */
  boolean rejectedAtServlet(Object request, Object response);
}
