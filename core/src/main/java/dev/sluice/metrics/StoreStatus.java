package dev.sluice.metrics;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/** What a store reports about itself, read at one moment: immutable. */
public final class StoreStatus {
  /** A store in this JVM: no round trips, breakers or fleet to report. */
  public static final StoreStatus MEMORY =
      new StoreStatus(
          "memory",
          Histogram.EMPTY,
          Histogram.EMPTY,
          0,
          0,
          Collections.<String, String>emptyMap(),
          1,
          Collections.<String, LeaseStatus>emptyMap());

  public static final String CLOSED = "closed";
  public static final String OPEN = "open";
  public static final String PROBING = "probing";

  private final String type;
  private final Histogram recentRoundTrips;
  private final Histogram allRoundTrips;
  private final long commands;
  private final long errors;
  private final Map<String, String> breakers;
  private final int fleetSize;
  private final Map<String, LeaseStatus> leases;

  private StoreStatus(
      String type,
      Histogram recentRoundTrips,
      Histogram allRoundTrips,
      long commands,
      long errors,
      Map<String, String> breakers,
      int fleetSize,
      Map<String, LeaseStatus> leases) {
    this.type = type;
    this.recentRoundTrips = recentRoundTrips;
    this.allRoundTrips = allRoundTrips;
    this.commands = commands;
    this.errors = errors;
    this.breakers = Collections.unmodifiableMap(new LinkedHashMap<>(breakers));
    this.fleetSize = fleetSize;
    this.leases = Collections.unmodifiableMap(new LinkedHashMap<>(leases));
  }

  /**
   * A Redis store's status.
   *
   * @param breakers each shard's breaker state ({@link #CLOSED}, {@link #OPEN} or {@link #PROBING})
   *     by the name its log lines give the shard
   */
  public static StoreStatus redis(RoundTrips roundTrips, Map<String, String> breakers, int fleet) {
    return new StoreStatus(
        "redis",
        roundTrips.latency().recent(),
        roundTrips.latency().total(),
        roundTrips.commands(),
        roundTrips.failures(),
        breakers,
        fleet,
        Collections.<String, LeaseStatus>emptyMap());
  }

  /** This status with the leases of its local-first rules, by rule id. */
  public StoreStatus withLeases(Map<String, LeaseStatus> byRule) {
    return new StoreStatus(
        type, recentRoundTrips, allRoundTrips, commands, errors, breakers, fleetSize, byRule);
  }

  /** The leases of each local-first rule in force, by rule id; none for other rules. */
  public Map<String, LeaseStatus> leases() {
    return leases;
  }

  /** {@code memory} or {@code redis}. */
  public String type() {
    return type;
  }

  public boolean isShared() {
    return !type.equals(MEMORY.type);
  }

  /** Round trips of the last minute. */
  public Histogram recentRoundTrips() {
    return recentRoundTrips;
  }

  /** Round trips since the store started. */
  public Histogram allRoundTrips() {
    return allRoundTrips;
  }

  /** Commands sent in those round trips: each round trip is one pipeline of them. */
  public long commands() {
    return commands;
  }

  /** Round trips a server did not answer, and failed connects, since the store started. */
  public long errors() {
    return errors;
  }

  /**
   * Each shard's breaker: {@link #CLOSED}, {@link #OPEN} (deciding locally) or {@link #PROBING}.
   */
  public Map<String, String> breakers() {
    return breakers;
  }

  /** Shards decided in this JVM now: their breakers are open or probing. */
  public int openBreakers() {
    int open = 0;
    for (String state : breakers.values()) {
      open += state.equals(CLOSED) ? 0 : 1;
    }
    return open;
  }

  /** Commands per round trip, on average since the store started; 0 before the first. */
  public double meanPipelineCommands() {
    long roundTrips = allRoundTrips.count();
    return roundTrips == 0 ? 0 : (double) commands / roundTrips;
  }

  /** The JVMs the store believes share the limits; 1 for a store in this JVM. */
  public int fleetSize() {
    return fleetSize;
  }
}
