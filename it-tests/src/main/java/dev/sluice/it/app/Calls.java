package dev.sluice.it.app;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * How often the app really served a request. Tests read it over HTTP ({@link CountServlet}), since
 * in a javax container this class lives in the web app's own class loader, out of the test's reach.
 */
final class Calls {
  static final AtomicInteger SERVED = new AtomicInteger();

  /** Requests {@link MarkFilter} ran for. */
  static final AtomicInteger FILTERED = new AtomicInteger();

  private Calls() {}
}
