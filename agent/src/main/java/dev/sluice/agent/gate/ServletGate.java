package dev.sluice.agent.gate;

import dev.sluice.agent.bootstrap.Gate;
import dev.sluice.config.ConfigSource;
import dev.sluice.config.OnInvalidConfig;
import dev.sluice.config.StartRefusedException;
import dev.sluice.core.Phase;
import dev.sluice.http.Enforcer;
import dev.sluice.support.Failures;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Logger;

/**
 * The agent's {@link Gate}: the request path of the Filter ({@link Enforcer} over an exchange),
 * reached through method handles instead of servlet types. The rules load on a thread of their own
 * ({@link RulesLoading}) once the application has set up its logging or serves its first request; a
 * request that comes before they are in force waits for them, until one deadline from the start of
 * loading, so none slips through unlimited while they load. Whatever fails in here lets the request
 * through.
 */
public final class ServletGate implements Gate {
  private static final String LET_THROUGH =
      "Sluice: a request was let through because the agent failed";

  private final RulesLoading loading;
  private final AtomicBoolean toldFailed = new AtomicBoolean();
  private final AtomicBoolean toldLate = new AtomicBoolean();

  /** Made at the first failure, once the application's logging is long set up (see AgentLog). */
  private volatile Failures failures;

  ServletGate(RulesLoading loading) {
    this.loading = loading;
  }

  /**
   * The gate of the rules of {@code source}, which start loading at {@link #begin}, or at the first
   * request; {@code beforeLoading} runs first on the loading thread, {@code serving} on it once the
   * application has served its first request.
   */
  public static ServletGate prepare(
      ConfigSource source, OnInvalidConfig onInvalid, Runnable beforeLoading, Runnable serving) {
    return new ServletGate(RulesLoading.of(source, onInvalid, beforeLoading, serving));
  }

  /** Starts loading the rules now, if nothing did so yet. */
  public void begin() {
    loading.begin();
  }

  /** Gives these rules up for a gate in its place: its limiter is closed, now or once made. */
  public void close() {
    loading.cancel();
  }

  /**
   * Under {@link OnInvalidConfig#REFUSE_START}: starts loading the rules and returns once they are
   * in force. When they cannot be, this gate gives them up for good: what loading makes later is
   * closed.
   *
   * @throws StartRefusedException when they could not be put in force within the deadline
   */
  public void awaitRules() {
    try {
      awaitLoaded();
    } catch (StartRefusedException e) {
      loading.cancel();
      throw e;
    }
  }

  private void awaitLoaded() {
    Throwable failure;
    try {
      if (loading.awaitLoaded()) {
        return;
      }
      failure = new TimeoutException("still loading");
    } catch (StartRefusedException e) {
      throw e;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      failure = e;
    } catch (Throwable t) {
      failure = t;
    }
    throw new StartRefusedException(
        "Sluice could not put the rules in force within "
            + RulesLoading.LOADING_SECONDS
            + " s ("
            + failure
            + "); refusing to start ("
            + OnInvalidConfig.NAME
            + "=refuse_start)",
        failure);
  }

  /** A gate that applies {@code enforcer}, in force at once: for tests. */
  static ServletGate of(Enforcer enforcer) {
    return new ServletGate(RulesLoading.inForce(enforcer));
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
    } catch (InterruptedException e) {
      // Interrupted while waiting for the rules: no failure of the agent's, and whoever
      // interrupted the thread (a container stopping) must still see it.
      Thread.currentThread().interrupt();
      return false;
    } catch (Throwable t) {
      failures().log(LET_THROUGH, t);
      return false;
    }
  }

  /**
   * The enforcer once the rules are in force; while they still load after a short wait, the file's
   * rules by their {@code on_error} (said once); null (said once) when there is nothing to decide
   * by: loading reads one file and opens a store that connects lazily, so a longer wait means
   * something is stuck, and the application's threads must not be.
   */
  private Enforcer enforcer() throws InterruptedException {
    Enforcer in = loading.forRequest();
    if (in != null) {
      return in;
    }
    Throwable failure = loading.failure();
    if (failure != null) {
      if (toldFailed.compareAndSet(false, true)) {
        failures().log("Sluice: the rules could not be loaded; nothing is limited", failure);
      }
      return null;
    }
    Enforcer byOnError = loading.fallback();
    if (toldLate.compareAndSet(false, true)) {
      failures()
          .warn(
              "late",
              "Sluice: a request waited "
                  + RulesLoading.REQUEST_WAIT_MILLIS
                  + " ms for the rules, which are still loading; until they are in force, "
                  + (byOnError == null
                      ? "requests pass unlimited"
                      : "each rule decides by its on_error alone (fail_open passes, fail_closed"
                          + " denies), counting nothing"));
    }
    return byOnError;
  }

  private Failures failures() {
    Failures made = failures;
    if (made == null) {
      synchronized (this) {
        if (failures == null) {
          failures = new Failures(Logger.getLogger("dev.sluice.agent"));
        }
        made = failures;
      }
    }
    return made;
  }
}
