package dev.sluice.store.redis;

import org.apache.commons.pool2.impl.GenericObjectPool;

/**
 * commons-pool's one evictor thread (per copy of the library), which closes idle connections. The
 * last pool closed shuts it down, and its thread ends a moment after that close returns: a
 * container that looks for an undeployed application's threads right after the Filter's destroy
 * (Tomcat does) could still see it, and report a thread left running.
 */
final class PoolEvictor {
  private static final String NAME = "commons-pool-evictor";
  private static final long ENDING_MILLIS = 200;

  private PoolEvictor() {}

  /**
   * Waits, briefly, for this copy's evictor to end once the pools closed just now were its last: a
   * thread that is not waiting for its next run is ending. One still waiting serves other pools.
   */
  static void awaitEnding() {
    ClassLoader ours = GenericObjectPool.class.getClassLoader();
    for (Thread thread : Thread.getAllStackTraces().keySet()) {
      if (NAME.equals(thread.getName())
          && thread.getContextClassLoader() == ours
          && thread.getState() != Thread.State.WAITING
          && thread.getState() != Thread.State.TIMED_WAITING) {
        try {
          thread.join(ENDING_MILLIS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
      }
    }
  }
}
