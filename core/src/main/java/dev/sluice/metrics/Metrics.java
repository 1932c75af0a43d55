package dev.sluice.metrics;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Everything one limiter reports: what each rule decided, how its store is doing, and which config
 * is in force. The limiter and its config owner feed it (the {@code bind…}, {@code applied} and
 * {@code reloaded} methods); monitoring reads it ({@link #rules}, {@link #store}, {@link #config},
 * {@link #prometheusText}), through JMX too ({@link Jmx}).
 *
 * <p>Rules are counted by id: a reload that keeps a rule keeps its counts, and one that drops a
 * rule keeps them aside until the next reload, as the limiter keeps its store counters (a file
 * caught half-written drops rules for a moment). A rule is reported only while in force.
 */
public final class Metrics {
  public static final int DEFAULT_TOP_CLIENTS = 10;

  private final LongSupplier micros;
  private volatile Map<String, RuleCounters> live = Collections.emptyMap();
  private Map<String, RuleCounters> retired = Collections.emptyMap();
  private volatile int topClients = DEFAULT_TOP_CLIENTS;
  private volatile boolean rawIdentities;
  private volatile Supplier<StoreStatus> store = () -> StoreStatus.MEMORY;
  private volatile ConfigStatus config = ConfigStatus.NONE;
  private volatile Map<String, Long> trials = Collections.emptyMap();
  private volatile Set<String> inShadow = Collections.emptySet();
  private volatile Map<String, Long> localFirst = Collections.emptyMap();
  private final List<Runnable> rulesChanged = new CopyOnWriteArrayList<>();
  private final LongAdder topListsWorkedOut = new LongAdder();

  /**
   * @param micros the time in microseconds since the epoch, as {@code dev.sluice.store.Clock}
   */
  public Metrics(LongSupplier micros) {
    this.micros = micros;
  }

  /**
   * The counters of {@code ruleIds}, index for index, from now on the rules reported: those of a
   * rule counted by the last bind or the one before continue its counts.
   */
  public synchronized RuleCounters[] bindRules(List<String> ruleIds) {
    Map<String, RuleCounters> next = new LinkedHashMap<>();
    RuleCounters[] bound = new RuleCounters[ruleIds.size()];
    for (int i = 0; i < bound.length; i++) {
      String id = ruleIds.get(i);
      RuleCounters counters = live.get(id);
      if (counters == null) {
        counters = retired.get(id);
      }
      if (counters == null) {
        counters = new RuleCounters(id, topClients, micros, topListsWorkedOut);
      }
      bound[i] = counters;
      next.put(id, counters);
    }
    Map<String, RuleCounters> dropped = new LinkedHashMap<>(live);
    dropped.keySet().removeAll(next.keySet());
    retired = dropped;
    boolean changed = !next.keySet().equals(live.keySet());
    live = Collections.unmodifiableMap(next);
    if (changed) {
      for (Runnable listener : rulesChanged) {
        listener.run();
      }
    }
    return bound;
  }

  /** From now on the store reported is the one {@code status} describes. */
  public void bindStore(Supplier<StoreStatus> status) {
    this.store = status;
  }

  /**
   * The {@code metrics} section: how many clients each rule's top list follows (a new size starts
   * the lists over) and whether they are shown as they are or hashed.
   */
  public synchronized void topClients(int capacity, boolean raw) {
    topClients = capacity;
    rawIdentities = raw;
    for (RuleCounters counters : live.values()) {
      counters.topClients(capacity);
    }
    for (RuleCounters counters : retired.values()) {
      counters.topClients(capacity);
    }
  }

  /** The file of {@code version} (its {@code RulesVersion}) is in force now, with {@code rules}. */
  public synchronized void applied(String version, int rules) {
    config = config.applied(version, rules, millis());
  }

  /** The file was read again and found {@code result}; {@code problem} says why when rejected. */
  public synchronized void reloaded(ConfigStatus.Reload result, String problem) {
    config = config.reloaded(result, problem, millis());
  }

  /**
   * The rules on trial in a staged rollout, each with when it enforces (milliseconds since the
   * epoch); until then they run in shadow.
   */
  public void trials(Map<String, Long> enforcesAtMillis) {
    trials = Collections.unmodifiableMap(new LinkedHashMap<>(enforcesAtMillis));
  }

  public Map<String, Long> trials() {
    return trials;
  }

  /** The rules in force that run in shadow now: marked so, or on trial. */
  public void inShadow(Set<String> ruleIds) {
    inShadow = Collections.unmodifiableSet(new HashSet<>(ruleIds));
  }

  /** Whether the rule {@code ruleId} runs in shadow now (counts, never denies). */
  public boolean inShadow(String ruleId) {
    return inShadow.contains(ruleId);
  }

  /** The rules in force decided local-first, each with its sync in microseconds. */
  public void localFirst(Map<String, Long> syncMicrosByRule) {
    localFirst = Collections.unmodifiableMap(new HashMap<>(syncMicrosByRule));
  }

  /** The sync of {@code ruleId} if it is decided local-first, else 0: exactly. */
  public long localFirstSyncMicros(String ruleId) {
    Long sync = localFirst.get(ruleId);
    return sync == null ? 0 : sync;
  }

  /** What each rule in force decided, in the order of the file. */
  public List<RuleStats> rules() {
    boolean raw = rawIdentities;
    List<RuleStats> rules = new ArrayList<>();
    for (RuleCounters counters : live.values()) {
      rules.add(counters.stats(raw));
    }
    return rules;
  }

  /** What the rule {@code ruleId} decided, or null when it is not in force. */
  public RuleStats rule(String ruleId) {
    RuleCounters counters = live.get(ruleId);
    return counters == null ? null : counters.stats(rawIdentities);
  }

  /**
   * How many times a rule's top limited clients were worked out (its sketches merged, identities
   * hashed): the cost of reading them, which a reader cannot otherwise see.
   */
  public long topListsWorkedOut() {
    return topListsWorkedOut.sum();
  }

  public StoreStatus store() {
    return store.get();
  }

  public ConfigStatus config() {
    return config;
  }

  /**
   * All of it in the Prometheus text exposition format, version 0.0.4, to serve as {@link
   * PrometheusText#CONTENT_TYPE}; docs/operations.md names every metric.
   */
  public String prometheusText() {
    return Exposition.render(this);
  }

  /** The counters of the rules in force. */
  Collection<RuleCounters> live() {
    return live.values();
  }

  /** Whether identities are shown as they are ({@code metrics.raw_identities}), not hashed. */
  public boolean rawIdentities() {
    return rawIdentities;
  }

  /**
   * {@code identity} as the top limited clients show it: as it is, or hashed. So an operator can
   * find which client of the status page a known address or key is.
   */
  public String shown(String identity) {
    return rawIdentities ? identity : LimitedClient.hashed(identity);
  }

  /**
   * Runs {@code listener} whenever the rules in force change, while they are bound: JMX and a
   * Micrometer registry follow the rules so.
   */
  public void onRulesChanged(Runnable listener) {
    rulesChanged.add(listener);
  }

  /** No longer runs {@code listener}. */
  public void stopOnRulesChanged(Runnable listener) {
    rulesChanged.remove(listener);
  }

  private long millis() {
    return micros.getAsLong() / 1000;
  }
}
