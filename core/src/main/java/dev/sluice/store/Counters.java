package dev.sluice.store;

import dev.sluice.algo.Algorithm;

/**
 * The counters of one rule in one store: a handle the limiter binds once per rule and passes back
 * with every permit, so the request path never looks a rule up by name.
 */
public interface Counters {
  String ruleId();

  Algorithm algorithm();

  long windowMicros();
}
