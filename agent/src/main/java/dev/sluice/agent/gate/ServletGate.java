package dev.sluice.agent.gate;

import dev.sluice.agent.bootstrap.Gate;
import dev.sluice.config.ConfigSource;
import dev.sluice.config.LiveLimiter;
import dev.sluice.config.OnInvalidConfig;
import dev.sluice.config.StartRefusedException;
import dev.sluice.core.Phase;
import dev.sluice.http.Enforcer;
import dev.sluice.support.Failures;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.logging.Logger;

/**
 * The agent's {@link Gate}: the request path of the Filter ({@link Enforcer} over an exchange),
 * reached through method handles instead of servlet types. The rules load on a thread of their own
 * while the container starts; a request that comes before they are in force waits for them, so none
 * slips through unlimited. Whatever fails in here lets the request through.
 */
public final class ServletGate implements Gate {
  static final long LOADING_SECONDS = 10;
  private static final String LET_THROUGH =
      "Sluice: a request was let through because the agent failed";

  private final FutureTask<Enforcer> enforcer;
  private final Failures failures = new Failures(Logger.getLogger("dev.sluice.agent"));

  private ServletGate(FutureTask<Enforcer> enforcer) {
    this.enforcer = enforcer;
  }

  /**
   * Starts loading the rules from {@code source} and returns the gate that will apply them. Under
   * {@link OnInvalidConfig#REFUSE_START} it returns once they are in force, for the caller to stop
   * the start when they cannot be.
   *
   * @throws StartRefusedException under refuse_start, when the rules could not be put in force
   */
  public static ServletGate start(final ConfigSource source, final OnInvalidConfig onInvalid) {
    FutureTask<Enforcer> task =
        new FutureTask<Enforcer>(
            new Callable<Enforcer>() {
              @Override
              public Enforcer call() {
                LiveLimiter live = LiveLimiter.start(source, onInvalid, "agent");
                return new Enforcer(live.limiter(), live.admin());
              }
            });
    Thread loader = new Thread(task, "sluice-agent-start");
    loader.setDaemon(true);
    // The threads Sluice starts inherit this: Tomcat's logging (JULI) files a line by the context
    // class loader, and knows the system loader's configuration but not the agent's own loader.
    loader.setContextClassLoader(ClassLoader.getSystemClassLoader());
    loader.start();
    if (onInvalid == OnInvalidConfig.REFUSE_START) {
      awaitRules(task);
    }
    return new ServletGate(task);
  }

  /** Returns once the rules are in force; whatever keeps them out refuses the start. */
  private static void awaitRules(FutureTask<Enforcer> task) {
    Throwable failure;
    try {
      task.get(LOADING_SECONDS, TimeUnit.SECONDS);
      return;
    } catch (ExecutionException e) {
      failure = e.getCause();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      failure = e;
    } catch (TimeoutException e) {
      failure = e;
    }
    if (failure instanceof StartRefusedException) {
      throw (StartRefusedException) failure;
    }
    throw new StartRefusedException(
        "Sluice could not put the rules in force within "
            + LOADING_SECONDS
            + " s ("
            + failure
            + "); refusing to start ("
            + OnInvalidConfig.NAME
            + "=refuse_start)",
        failure);
  }

  /** A gate that applies {@code enforcer}, in force at once: for tests. */
  static ServletGate of(final Enforcer enforcer) {
    FutureTask<Enforcer> done =
        new FutureTask<Enforcer>(
            new Callable<Enforcer>() {
              @Override
              public Enforcer call() {
                return enforcer;
              }
            });
    done.run();
    return new ServletGate(done);
  }

  @Override
  public boolean rejected(Object request, Object response) {
    return rejected(request, response, Phase.ENTRY);
  }

  @Override
  public boolean rejectedAtServlet(Object request, Object response) {
    return rejected(request, response, Phase.AFTER_LOGIN);
  }

  private boolean rejected(Object request, Object response, Phase phase) {
    try {
      ServletApi api = ServletApi.of(request.getClass());
      if (api == null || !api.isInitialHttpCall(request, response)) {
        return false;
      }
      Enforcer in = enforcer();
      return in != null && !in.admit(new ReflectedExchange(api, request, response), phase);
    } catch (Throwable t) {
      failures.log(LET_THROUGH, t);
      return false;
    }
  }

  /**
   * The enforcer once the rules are in force. A request waits for them at most {@link
   * #LOADING_SECONDS}: loading reads one file and opens a store that connects lazily, so a longer
   * wait means something is stuck, and the application must not be.
   */
  private Enforcer enforcer() throws InterruptedException {
    try {
      return enforcer.get(LOADING_SECONDS, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      failures.log("Sluice: the rules could not be loaded; nothing is limited", e.getCause());
      return null;
    } catch (TimeoutException e) {
      failures.log(
          "Sluice: the rules are still loading after "
              + LOADING_SECONDS
              + " s; requests pass unlimited until they are in force",
          e);
      return null;
    }
  }
}
