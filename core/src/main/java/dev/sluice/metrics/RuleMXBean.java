package dev.sluice.metrics;

import java.util.List;

/** A rule's counts as JMX shows them: {@code dev.sluice:type=Rule,context=…,name=<rule id>}. */
public interface RuleMXBean {
  long getAllowed();

  long getDenied();

  long getShadowDenied();

  long getDecidedLocally();

  long getDeniedLocally();

  List<LimitedClient> getTopLimited();

  /** {@code enforce}, or {@code shadow}: marked so, or on trial (see {@link #getEnforcesAt}). */
  String getMode();

  /** When a rule on trial starts to enforce, in milliseconds since the epoch; 0 when none is. */
  long getEnforcesAt();
}
