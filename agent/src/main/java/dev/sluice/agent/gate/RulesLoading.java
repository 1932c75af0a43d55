package dev.sluice.agent.gate;

import dev.sluice.config.ConfigSource;
import dev.sluice.config.FileRules;
import dev.sluice.config.LiveLimiter;
import dev.sluice.config.OnInvalidConfig;
import dev.sluice.core.Limiter;
import dev.sluice.core.Rules;
import dev.sluice.http.Enforcer;
import dev.sluice.otel.SpanAttributes;
import dev.sluice.support.Daemons;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The agent's rules, loaded on a thread of their own once {@link #begin} is called: when the
 * application has set up its logging, or at its first request, whichever comes first (loading logs,
 * and must not be what chooses the JVM's log manager). Then, at the first request, the MBeans (by
 * then the application has set up the platform MBean server as it wants it) and whatever else waits
 * for the application to serve.
 *
 * <p>One deadline, from the start of loading: a request that comes while the rules load waits for
 * them {@value #REQUEST_WAIT_MILLIS} ms at most, never past the deadline, and every request after
 * it, or after loading failed, only reads a volatile field. (A request holds a server thread: a
 * stuck loading must not hold every thread of the server for seconds.)
 */
final class RulesLoading implements Runnable {
  static final long LOADING_SECONDS = 10;

  /** The longest one request waits for rules still loading; then it passes. */
  static final long REQUEST_WAIT_MILLIS = 500;

  /** What loading does: a seam for tests. */
  interface Loader {
    /** Runs first on the loading thread: the agent opens its log here. */
    void beforeLoading();

    /** Puts the rules in force. */
    Enforcer load();

    /** Runs on the loading thread once the application served a request. */
    void serving();

    /** Closes what {@link #load} made: its rules were given up on. */
    void close();

    /**
     * What decides a request that cannot wait for {@link #load}: the file's rules by their {@code
     * on_error}, nothing counted; null when there is no valid file.
     */
    Enforcer fallback();
  }

  /** Nanoseconds of a monotonic clock, and waits measured by it: a seam for tests. */
  interface Ticker {
    long nanos();

    /** Waits until {@code latch} is open or {@code nanos} have passed. */
    default void await(CountDownLatch latch, long nanos) throws InterruptedException {
      latch.await(nanos, TimeUnit.NANOSECONDS);
    }
  }

  private static final Ticker SYSTEM_TICKER =
      new Ticker() {
        @Override
        public long nanos() {
          return System.nanoTime();
        }
      };

  private final Loader loader;
  private final Ticker ticker;
  private final AtomicBoolean begun = new AtomicBoolean();
  private final CountDownLatch loaded = new CountDownLatch(1);
  private final CountDownLatch served = new CountDownLatch(1);
  private volatile long deadline;
  private volatile Enforcer enforcer;
  private volatile Throwable failure;
  private boolean cancelled; // guarded by this
  private final Object fallbackLock = new Object();
  private Enforcer fallback; // guarded by fallbackLock
  private boolean fallbackMade; // guarded by fallbackLock

  RulesLoading(Loader loader, Ticker ticker) {
    this.loader = loader;
    this.ticker = ticker;
  }

  static RulesLoading of(
      final ConfigSource source,
      final OnInvalidConfig onInvalid,
      final Runnable beforeLoading,
      final Runnable serving) {
    return new RulesLoading(
        new Loader() {
          private LiveLimiter live;

          @Override
          public void beforeLoading() {
            beforeLoading.run();
          }

          @Override
          public Enforcer load() {
            live = LiveLimiter.startWithoutMBeans(source, onInvalid, "agent");
            return new Enforcer(live.limiter(), live.admin(), new SpanAttributes());
          }

          @Override
          public void serving() {
            live.registerMBeans();
            serving.run();
          }

          @Override
          public void close() {
            live.close();
          }

          @Override
          public Enforcer fallback() {
            return byOnError(source);
          }
        },
        SYSTEM_TICKER);
  }

  /**
   * The rules {@code source}'s file says now, each deciding by its {@code on_error} alone: a
   * request that a {@code fail_closed} rule matches is denied, any other passes; null when the file
   * is missing or invalid.
   */
  static Enforcer byOnError(ConfigSource source) {
    Rules rules = FileRules.read(source);
    if (rules == null) {
      return null;
    }
    Limiter limiter = new Limiter(new OnErrorStore());
    limiter.apply(rules);
    return new Enforcer(limiter);
  }

  /** Loading done, {@code enforcer} in force: for tests. */
  static RulesLoading inForce(final Enforcer enforcer) {
    RulesLoading loading =
        new RulesLoading(
            new Loader() {
              @Override
              public void beforeLoading() {}

              @Override
              public Enforcer load() {
                return enforcer;
              }

              @Override
              public void serving() {}

              @Override
              public void close() {}

              @Override
              public Enforcer fallback() {
                return null;
              }
            },
            SYSTEM_TICKER);
    loading.begun.set(true);
    loading.deadline = SYSTEM_TICKER.nanos();
    loading.load();
    return loading;
  }

  /** Starts loading, once; later calls return at once. */
  void begin() {
    if (!begun.compareAndSet(false, true)) {
      return;
    }
    deadline = ticker.nanos() + TimeUnit.SECONDS.toNanos(LOADING_SECONDS);
    // With no context class loader, as every thread of Sluice's: Tomcat's logging (JULI) files a
    // line by the context class loader, and takes none for its own (the system loader's
    // configuration), where it would know nothing of the agent's isolated loader.
    Daemons.start("sluice-agent-start", this);
  }

  @Override
  public void run() {
    if (load() && awaitFirstRequest()) {
      loader.serving();
    }
  }

  private boolean load() {
    Enforcer made;
    try {
      loader.beforeLoading();
      made = loader.load();
    } catch (Throwable t) {
      failure = t;
      loaded.countDown();
      return false;
    }
    boolean kept;
    synchronized (this) {
      kept = !cancelled;
      if (kept) {
        enforcer = made;
      }
    }
    loaded.countDown();
    if (!kept) {
      loader.close();
    }
    return kept;
  }

  /**
   * Gives these rules up (a start refused, a gate replaced): what loading made is closed, now or
   * once it is made, so no limiter lives on that nobody uses, its threads and store included; and
   * the loading thread, which may be waiting for a first request that will never come to these
   * rules, ends.
   */
  void cancel() {
    boolean made;
    synchronized (this) {
      cancelled = true;
      made = enforcer != null;
      enforcer = null;
    }
    served.countDown();
    if (made) {
      loader.close();
    }
  }

  /**
   * Waits for the first request; true when these rules serve it, false when they were given up
   * meanwhile or the thread was interrupted (then with its flag set again).
   */
  private boolean awaitFirstRequest() {
    try {
      served.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
    synchronized (this) {
      return !cancelled;
    }
  }

  /**
   * For a request: the enforcer of the rules in force, waiting for them {@value
   * #REQUEST_WAIT_MILLIS} ms at most and never past the deadline, or null when there is none (yet).
   * Begins loading if nothing did so far.
   */
  Enforcer forRequest() throws InterruptedException {
    Enforcer in = enforcer;
    if (in != null) {
      served.countDown();
      return in;
    }
    begin();
    served.countDown();
    if (failure == null) {
      long left =
          Math.min(deadline - ticker.nanos(), TimeUnit.MILLISECONDS.toNanos(REQUEST_WAIT_MILLIS));
      if (left > 0) {
        ticker.await(loaded, left);
      }
    }
    return enforcer;
  }

  /**
   * What decides the requests that came while the rules load and could wait no longer ({@link
   * Loader#fallback}), made at the first of them; null when there is nothing to decide by.
   */
  Enforcer fallback() {
    synchronized (fallbackLock) {
      if (!fallbackMade) {
        fallbackMade = true;
        fallback = loader.fallback();
      }
      return fallback;
    }
  }

  /** Why there are no rules in force: a failure of loading, or null if it is still under way. */
  Throwable failure() {
    return failure;
  }

  /**
   * For {@code on_invalid_config=refuse_start}: begins loading and waits for it until the deadline.
   * True when the rules are in force; false when the deadline passed; throws what failed.
   */
  boolean awaitLoaded() throws Throwable {
    begin();
    ticker.await(loaded, Math.max(0, deadline - ticker.nanos()));
    if (failure != null) {
      throw failure;
    }
    return enforcer != null;
  }
}
