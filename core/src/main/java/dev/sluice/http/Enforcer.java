package dev.sluice.http;

import dev.sluice.core.Decision;
import dev.sluice.core.Limiter;
import dev.sluice.core.Phase;
import dev.sluice.core.Rules;
import dev.sluice.store.Clock;
import dev.sluice.support.Failures;
import java.io.IOException;
import java.util.logging.Logger;

/**
 * Applies the limiter to one exchange: counts a request once however often it is dispatched, adds
 * the rate-limit headers, and writes the rejection (a 429, unless its rule says other) when denied.
 * Requests to the {@link Admin} endpoint are answered first and never counted. A request may be
 * decided in two {@link Phase}s, each counting it once. A failure inside Sluice lets the request
 * through, logged once per kind: a rate limiter must never be the reason an application breaks, nor
 * flood its log.
 */
public final class Enforcer {
  private static final Logger LOG = Logger.getLogger("dev.sluice.http");

  private final Limiter limiter;
  private final Admin admin;
  private final Clock clock;
  private final WaitingRoom waitingRoom;
  private final DecisionListener listener;
  private final Failures failures = new Failures(LOG);

  public Enforcer(Limiter limiter) {
    this(limiter, Admin.NONE);
  }

  public Enforcer(Limiter limiter, Admin admin) {
    this(limiter, admin, DecisionListener.NONE);
  }

  /** {@code listener} is told each decision that applies, once it is final. */
  public Enforcer(Limiter limiter, Admin admin, DecisionListener listener) {
    this(limiter, admin, Clock.SYSTEM, WaitingRoom.THREAD, listener);
  }

  /** {@code clock} tells the time for {@code reset: epoch_seconds}. */
  Enforcer(Limiter limiter, Admin admin, Clock clock) {
    this(limiter, admin, clock, WaitingRoom.THREAD);
  }

  /** {@code sleeper} waits for a delayed request's slot. */
  Enforcer(Limiter limiter, Admin admin, Clock clock, WaitingRoom.Sleeper sleeper) {
    this(limiter, admin, clock, sleeper, DecisionListener.NONE);
  }

  Enforcer(
      Limiter limiter,
      Admin admin,
      Clock clock,
      WaitingRoom.Sleeper sleeper,
      DecisionListener listener) {
    this.limiter = limiter;
    this.admin = admin;
    this.clock = clock;
    this.waitingRoom = new WaitingRoom(sleeper);
    this.listener = listener;
  }

  /** Returns true when the application should serve the request, decided by every rule. */
  public boolean admit(Exchange exchange) throws IOException {
    return admit(exchange, Phase.ALL);
  }

  /**
   * Returns true when the application should serve the request, decided by the rules of {@code
   * phase}; the admin endpoint is answered at entry, never after login.
   */
  public boolean admit(Exchange exchange, Phase phase) throws IOException {
    if (phase == Phase.AFTER_LOGIN && !limiter.rules().keyedByUser()) {
      return true; // the common case, at the cost of one field read per servlet call
    }
    if (!firstIn(exchange, phase)) {
      return true;
    }
    Decision decision;
    try {
      if (phase != Phase.AFTER_LOGIN && admin.answered(exchange)) {
        return false;
      }
      decision = decideAndHold(exchange, phase);
    } catch (RuntimeException e) {
      String request = exchange.method() + " " + exchange.path();
      failures.log("Sluice could not decide " + request + "; letting it through", e);
      return true;
    }
    if (decision.ruleId() == null) {
      return true;
    }
    if (!decision.allowed() && !exchange.clearForResponse()) {
      // Something before Sluice sent the response already: a 429 can no longer replace it.
      failures.warn(
          "committed",
          "Sluice: rule "
              + decision.ruleId()
              + " denied a request whose response was already committed; it was let through");
      return true;
    }
    tell(decision);
    RateLimitHeaders.write(decision, exchange, clock);
    if (decision.allowed()) {
      return true;
    }
    Rules rules = decision.rules();
    CorsHeaders.write(rules.cors(), rules.responses().headers(), exchange);
    Rejection.write(decision, exchange);
    return false;
  }

  /**
   * Decides the rules of {@code phase} and holds the request until its slot. A request has one wait
   * budget and one outcome whatever its phases: a request held at entry carries what it holds to
   * the decision after login ({@link Held}), which gives its entry's takes back when it denies.
   */
  private Decision decideAndHold(Exchange exchange, Phase phase) {
    Held held = phase == Phase.AFTER_LOGIN ? Held.of(exchange) : Held.NOTHING;
    Decision decision = waitingRoom.hold(limiter.decide(exchange, phase), limiter, held);
    if (held.decision != null) {
      exchange.setAttribute(Held.ATTRIBUTE, null);
      if (!decision.allowed()) {
        limiter.giveBack(held.decision);
      }
    } else if (phase == Phase.ENTRY
        && decision.allowed()
        && decision.delaying() >= 0
        && limiter.rules().keyedByUser()) {
      exchange.setAttribute(Held.ATTRIBUTE, Held.after(decision));
    }
    return decision;
  }

  /** A listener that fails costs its report, never the request. */
  private void tell(Decision decision) {
    try {
      listener.decided(decision);
    } catch (RuntimeException | LinkageError e) {
      failures.log("Sluice's decision listener " + listener + " failed", e);
    }
  }

  /**
   * Marks the request decided in {@code phase}; false when it was already. {@link Phase#ALL} marks
   * both phases, so no after-login decision counts it again; but after an entry decision (the
   * agent's) it decides nothing, and leaves the user's rules to the decision after login.
   */
  private static boolean firstIn(Exchange exchange, Phase phase) {
    switch (phase) {
      case ENTRY:
        return exchange.markDecided(Exchange.DECIDED_ATTRIBUTE);
      case AFTER_LOGIN:
        return exchange.markDecided(Exchange.DECIDED_AFTER_LOGIN_ATTRIBUTE);
      default:
        return exchange.markDecided(Exchange.DECIDED_ATTRIBUTE)
            && exchange.markDecided(Exchange.DECIDED_AFTER_LOGIN_ATTRIBUTE);
    }
  }
}
