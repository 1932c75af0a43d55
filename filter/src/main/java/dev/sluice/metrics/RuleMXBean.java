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
}
