package dev.sluice.support;

import java.security.AccessController;
import java.security.PrivilegedAction;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * The one way Sluice starts a thread: named, daemon (a JVM never waits for Sluice to exit), and
 * detached from whoever asked for it. A new thread inherits its creator's context class loader and,
 * up to Java 23, the access-control context of the code on its creator's stack, whose protection
 * domains hold their class loaders: a thread started from a web application's request or init
 * thread would keep that application's class loader reachable for as long as it runs, long after
 * an undeploy. So every thread is made {@link #detached}: with no context class loader (Tomcat's
 * logging then files its lines under the server's own configuration) and within a privileged
 * action, which captures Sluice's own protection domain only.
 */
public final class Daemons {
  private Daemons() {}

  /** Starts {@code task} on a new thread named {@code name}. */
  public static Thread start(String name, Runnable task) {
    Thread thread = create(name, task);
    thread.start();
    return thread;
  }

  /** Threads for an executor of one thread: each named {@code name}. */
  public static ThreadFactory named(final String name) {
    return new ThreadFactory() {
      @Override
      public Thread newThread(Runnable task) {
        return create(name, task);
      }
    };
  }

  /** Threads for an executor of several: named {@code prefix} and a number, from 1. */
  public static ThreadFactory numbered(final String prefix) {
    final AtomicInteger made = new AtomicInteger();
    return new ThreadFactory() {
      @Override
      public Thread newThread(Runnable task) {
        return create(prefix + made.incrementAndGet(), task);
      }
    };
  }

  /**
   * Runs {@code action} on this thread as if it were one of Sluice's: with no context class loader
   * and privileged. For a library call that may start a thread of its own (the JDK's file watcher,
   * Jedis's Sentinel listeners, commons-pool's evictor), which would inherit both.
   */
  public static <T> T detached(final Supplier<T> action) {
    return AccessController.doPrivileged(
        new PrivilegedAction<T>() {
          @Override
          public T run() {
            Thread current = Thread.currentThread();
            ClassLoader was = current.getContextClassLoader();
            current.setContextClassLoader(null);
            try {
              return action.get();
            } finally {
              current.setContextClassLoader(was);
            }
          }
        });
  }

  /**
   * No lambdas here: the agent starts threads from {@code premain}, where bootstrapping a lambda
   * would load {@code java.lang.invoke} while other agents are still setting up their own.
   */
  private static Thread create(final String name, final Runnable task) {
    return detached(
        new Supplier<Thread>() {
          @Override
          public Thread get() {
            Thread thread = new Thread(task, name);
            thread.setDaemon(true);
            return thread;
          }
        });
  }
}
