package dev.sluice.metrics;

import java.util.Map;

/** The store as JMX shows it: {@code dev.sluice:type=Store,context=…}. */
public interface StoreMXBean {
  String getType();

  /** The median Redis round trip of the last minute. */
  double getRoundTripP50Millis();

  /** The 99th percentile Redis round trip of the last minute. */
  double getRoundTripP99Millis();

  long getRoundTrips();

  long getErrors();

  /** Commands per round trip, on average since the store started. */
  double getPipelineCommandsMean();

  /** Each shard's breaker: closed, open or probing. */
  Map<String, String> getBreakers();

  /** Shards decided in this JVM now: breakers open or probing. */
  int getOpenBreakers();

  int getFleetSize();
}
