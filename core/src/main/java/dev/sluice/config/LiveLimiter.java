package dev.sluice.config;

import dev.sluice.admin.AdminEndpoint;
import dev.sluice.admin.AdminSettings;
import dev.sluice.core.Limiter;
import dev.sluice.core.Rule;
import dev.sluice.core.Rules;
import dev.sluice.metrics.ConfigStatus;
import dev.sluice.metrics.Jmx;
import dev.sluice.metrics.Metrics;
import dev.sluice.store.Clock;
import dev.sluice.store.RedisModule;
import dev.sluice.store.RulesInForce;
import dev.sluice.store.Store;
import java.io.Closeable;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * A limiter that follows its ratelimit.yaml: a valid change is in force within about a second and
 * keeps the counters of unchanged rules; an invalid change is logged with all its errors and the
 * last good rules stay (content once rejected is not parsed again while it stays). No file at all
 * means no limits (logged once) until one appears, as does an invalid first file, unless {@link
 * OnInvalidConfig#REFUSE_START} was chosen: then there is no start.
 *
 * <p>A valid change of the {@code store} section switches stores: requests from then on count in
 * the new store, afresh (counts cannot move between stores), and the old one is closed once the
 * requests still using it are done. So the first valid file chooses the store even when the file
 * was missing or invalid at start-up.
 *
 * <p>A file that says {@code rules_from: redis} keeps only its store, fleet and that field: the
 * rest comes from the version published in the store's Redis ({@link RulesFromRedis}), followed
 * like an edit of the file.
 */
public final class LiveLimiter implements Closeable {
  private static final Logger LOG = Logger.getLogger("dev.sluice.config");
  static final long POLL_MILLIS = 1_000;

  private final ConfigSource source;
  private final LocalFile localFile;
  private final RulesFromRedis fromRedis = new RulesFromRedis();
  private final OnInvalidConfig onInvalid;
  private final Function<StoreSettings, Store> opener;
  private final RetiredStores retired;
  private final Metrics metrics;
  private final Limiter limiter;
  private final AdminEndpoint admin;
  private final ConfigWatcher watcher;
  private final String name;
  private Jmx jmx; // guarded by this
  private final Clock clock;
  private final Rollout rollout = new Rollout();
  private StoreSettings storeSettings;

  /**
   * The document in force, once one was: set as soon as it is read, before it is applied (a Redis
   * store it names logs as it opens), and set back if applying it fails.
   */
  private Document applied;

  /** The Filter's application's context path, once told; its rules are checked against it. */
  private volatile String contextPath;

  private String lastProblem;

  private LiveLimiter(
      ConfigSource source,
      OnInvalidConfig onInvalid,
      Clock clock,
      Function<StoreSettings, Store> opener,
      String name) {
    this.source = source;
    this.name = name;
    this.localFile = new LocalFile(source);
    this.onInvalid = onInvalid;
    this.opener = opener;
    this.clock = clock;
    this.retired = new RetiredStores(clock);
    this.metrics = new Metrics(clock::micros);
    Document first = load();
    reloaded(first);
    this.storeSettings = first == null ? StoreSettings.DEFAULT : first.config().store();
    this.limiter = new Limiter(opener.apply(storeSettings), metrics);
    this.admin = new AdminEndpoint(limiter, metrics, clock, new LiveRulebook(this));
    if (first != null) {
      apply(null, first);
    }
    // A manual limiter (tests) neither follows its file nor shows in JMX.
    this.watcher =
        name == null ? null : new ConfigWatcher(source.file(), this::reload, POLL_MILLIS);
  }

  /** Loads {@code source} and follows its changes on a daemon thread; serves if it is invalid. */
  public static LiveLimiter start(ConfigSource source, String name) {
    return start(source, OnInvalidConfig.SERVE, name);
  }

  /**
   * Loads {@code source} and follows its changes on a daemon thread.
   *
   * @param name what tells this limiter's MBeans from others of the JVM: the web application's
   *     context path, {@code agent}
   * @throws StartRefusedException if {@code onInvalid} refuses to start without a valid file and
   *     there is none
   */
  public static LiveLimiter start(ConfigSource source, OnInvalidConfig onInvalid, String name) {
    LiveLimiter live = startWithoutMBeans(source, onInvalid, name);
    live.registerMBeans();
    return live;
  }

  /**
   * As {@link #start(ConfigSource, OnInvalidConfig, String)}, without touching JMX until {@link
   * #registerMBeans}: the agent starts before the application, which may set up the platform MBean
   * server its own way first (WildFly does).
   */
  public static LiveLimiter startWithoutMBeans(
      ConfigSource source, OnInvalidConfig onInvalid, String name) {
    return new LiveLimiter(
        source, onInvalid, Clock.SYSTEM, settings -> settings.open(Clock.SYSTEM), name);
  }

  /** Shows this limiter in the platform MBean server, once; a manual limiter never is. */
  public synchronized void registerMBeans() {
    if (jmx == null && name != null) {
      jmx = Jmx.register(metrics, name);
    }
  }

  /** Loads {@code source} once; {@link #reload()} follows changes when called. For tests. */
  public static LiveLimiter manual(ConfigSource source, Clock clock) {
    return manual(source, clock, settings -> settings.open(clock));
  }

  /** {@link #manual(ConfigSource, Clock)} with stores from {@code opener}. */
  static LiveLimiter manual(
      ConfigSource source, Clock clock, Function<StoreSettings, Store> opener) {
    return new LiveLimiter(source, OnInvalidConfig.SERVE, clock, opener, null);
  }

  public Limiter limiter() {
    return limiter;
  }

  /**
   * Tells this limiter the context path of the one application it serves (the Filter's), so that
   * rules that can match none of its requests are warned about now and at every reload.
   */
  public synchronized void servesContext(String contextPath) {
    this.contextPath = contextPath;
    if (applied != null && applied.config().enabled()) {
      warnAboutContextPath(applied.config().rules());
    }
  }

  private void warnAboutContextPath(Rules rules) {
    String warning = ContextPathCheck.warning(rules, contextPath);
    if (warning != null) {
      LOG.warning(warning);
    }
  }

  /** The operators' endpoint, as the file in force sets it up. */
  public AdminEndpoint admin() {
    return admin;
  }

  /** The document in force; null while none ever was. */
  synchronized Document inForce() {
    return applied;
  }

  /** Where published rules come from, for a write through the endpoint; under this lock only. */
  RulesFromRedis fromRedis() {
    return fromRedis;
  }

  /** What the rules decided, how the store is doing and which file is in force. */
  public Metrics metrics() {
    return metrics;
  }

  /** Reads the source again and applies it if it changed and is valid; true if applied. */
  public synchronized boolean reload() {
    retired.closeDue();
    admin.sample();
    endTrials();
    Document before = applied;
    Document next = load();
    if (next != null) {
      try {
        apply(before, next);
      } catch (RuntimeException | OutOfMemoryError e) {
        // Not applied after all: the next poll must try again, as with a file not read yet. Out of
        // memory too: rules that took the heap as they were allocated must be reported rejected,
        // not left in `applied` as if in force (the status said "unchanged" for good).
        applied = before;
        RulesInForce.version(before == null ? RulesInForce.NONE : before.version());
        next = null;
        report(
            "Sluice could not apply "
                + source
                + " ("
                + e
                + ")"
                + meanwhile("nothing is limited until it can", "the rules in force stay")
                + "; trying again at the next reload");
      }
    }
    reloaded(next);
    return next != null;
  }

  /**
   * The document to put in force if it changed and is valid; null otherwise, after logging why. The
   * document is the local file's, or the version published in Redis it names.
   */
  private Document load() {
    Document document;
    try {
      Document local = localFile.read();
      if (namesRedisWithoutTheModule(local)) {
        return reject(RedisModule.problem());
      }
      document = fromRedis.follow(local);
    } catch (IOException e) {
      report(
          "Sluice cannot read "
              + source
              + " ("
              + e
              + ")"
              + meanwhile("nothing is limited until it can be read", "the rules in force stay")
              + ".");
      return null;
    }
    if (document == null) {
      report(
          "Sluice found no config at "
              + source
              + meanwhile(
                  "nothing is limited until it appears", "the last rules read stay in force")
              + ".");
      return null;
    }
    if (document.config() == null) {
      return reject(document.errors());
    }
    Document next = null;
    if (!document.sameAs(applied)) {
      applied = next = document;
      // Now, before it is applied: a Redis store it names connects, and may log, as it opens.
      RulesInForce.version(document.version());
    }
    if (document.problem() != null) {
      report(document.problem()); // what stays in force, and why, is said in the problem
    } else if (lastProblem != null) {
      if (next == null) {
        // Back to the rules in force: whoever saw the problem must learn it is over, and a problem
        // that returns is news again.
        LOG.info("Sluice: " + document + " is valid again and holds the rules in force");
      }
      lastProblem = null;
    }
    return next;
  }

  /**
   * Whether {@code local} is a valid config with a Redis store while the Redis module is not on the
   * class path: rejected as an invalid file is, so the rules in force (or none) stay and the status
   * says what to add, instead of the store failing as it opens.
   */
  private static boolean namesRedisWithoutTheModule(Document local) {
    return local != null
        && local.config() != null
        && local.config().store().redis() != null
        && !RedisModule.present();
  }

  /** Tells the metrics what {@link #load} found: {@code loaded}, and what it reported. */
  private void reloaded(Document loaded) {
    if (lastProblem != null) {
      metrics.reloaded(ConfigStatus.Reload.REJECTED, lastProblem);
    } else if (loaded != null) {
      metrics.reloaded(ConfigStatus.Reload.APPLIED, null);
    } else {
      metrics.reloaded(ConfigStatus.Reload.UNCHANGED, null);
    }
  }

  /** Reports content rejected for {@code errors}; null, as there is nothing to apply. */
  private Document reject(String errors) {
    report(
        "Sluice rejected "
            + source
            + meanwhile("nothing is limited until it is fixed", "the last good rules stay in force")
            + ":\n"
            + errors);
    return null;
  }

  /** How many times the local file's content was parsed: for tests. */
  int parses() {
    return localFile.parses();
  }

  /** Puts {@code next} in force after {@code before} (null at start-up). */
  private void apply(Document before, Document next) {
    Config config = next.config();
    Config was = before == null ? null : before.config();
    for (ConfigError warning : config.warnings()) {
      LOG.warning("Sluice: " + warning);
    }
    if (config.enabled()) {
      warnAboutContextPath(config.rules());
    }
    // The kill switch limits nothing. The counters of the rules stay through one such apply (see
    // Limiter.apply), so switching back on soon resumes their counts.
    Rules rules =
        rollout.start(
            config.enabled() ? config.rules() : Rules.NONE,
            was == null ? null : was.rules().rules(),
            config.shadowForMicros(),
            clock.micros());
    metrics.topClients(config.metrics().topClients, config.metrics().rawIdentities);
    configureAdmin(was == null ? null : was.admin(), config.admin());
    if (config.store().equals(storeSettings)) {
      limiter.apply(rules);
    } else {
      switchStore(config.store(), rules);
    }
    metrics.applied(next.version(), rules.rules().size());
    metrics.trials(rollout.enforcesAtMillis());
    logApplied(was, config);
    logTrials(config);
  }

  /** Logs the rules a rollout put on trial by this apply, with when they enforce. */
  private void logTrials(Config config) {
    Map<String, Long> trials = rollout.enforcesAtMillis();
    if (!trials.isEmpty()) {
      LOG.info(
          "Sluice: on trial in shadow for "
              + Durations.format(config.shadowForMicros())
              + " (rollout.shadow_for), then enforcing by themselves: "
              + String.join(", ", trials.keySet())
              + " "
              + RulesInForce.named());
    }
  }

  /** Puts in force the rules whose trial is over, enforcing now. */
  private void endTrials() {
    List<String> over = rollout.end(clock.micros());
    if (over.isEmpty() || applied == null || !applied.config().enabled()) {
      return;
    }
    limiter.apply(rollout.inForce(applied.config().rules()));
    metrics.trials(rollout.enforcesAtMillis());
    LOG.info(
        "Sluice: "
            + String.join(", ", over)
            + (over.size() == 1 ? " enforces" : " enforce")
            + " now, the shadow trial over "
            + RulesInForce.named());
  }

  /**
   * Logs what {@code config} puts in force, with its version: the whole list when its rules come
   * into force (the first file, the kill switch turned off), what changed since {@code before}
   * otherwise, and only that nothing is limited while the kill switch is on.
   */
  private void logApplied(Config before, Config config) {
    String named = RulesInForce.named();
    List<Rule> rules = config.rules().rules();
    if (!config.enabled()) {
      LOG.warning(
          "Sluice: disabled by `enabled: false` in " + applied + "; nothing is limited " + named);
    } else if (before == null || !before.enabled()) {
      LOG.info(
          "Sluice: "
              + (before == null ? "" : "enabled again; ")
              + rules.size()
              + (rules.size() == 1 ? " rule" : " rules")
              + " in force from "
              + applied
              + " "
              + named
              + (rules.isEmpty() ? "" : ": " + RulesDiff.inBrief(rules)));
    } else {
      LOG.info(
          "Sluice: applied "
              + applied
              + " "
              + named
              + ": "
              + RulesDiff.between(before.rules().rules(), rules));
    }
  }

  /** Turns the endpoint on, off or to its new settings, logged when they change. */
  private void configureAdmin(AdminSettings before, AdminSettings settings) {
    admin.configure(settings);
    if (settings == null ? before != null : !settings.equals(before)) {
      LOG.info(
          "Sluice: "
              + (settings == null ? "admin endpoint off" : "admin endpoint at " + settings)
              + " as "
              + source
              + " says"); // the local file's, even under a published version
    }
  }

  private void switchStore(StoreSettings settings, Rules rules) {
    Store next = opener.apply(settings);
    retired.add(limiter.switchTo(next, rules));
    LOG.warning(
        "Sluice: switched stores as "
            + source
            + " says, from "
            + storeSettings
            + " to "
            + settings
            + "; counts are not carried over");
    storeSettings = settings;
  }

  /** "; " and what a problem means meanwhile: {@code none} while no rules were ever in force. */
  private String meanwhile(String none, String kept) {
    if (applied != null) {
      return "; " + kept;
    }
    return "; "
        + (onInvalid == OnInvalidConfig.REFUSE_START
            ? "refusing to start (" + OnInvalidConfig.NAME + "=refuse_start)"
            : none);
  }

  /**
   * Logs a problem once, not once per poll. Under refuse_start, before any rules were in force (so
   * at start-up), refuses instead: the application must not start.
   */
  private void report(String problem) {
    if (applied == null && onInvalid == OnInvalidConfig.REFUSE_START) {
      throw new StartRefusedException(problem);
    }
    if (!problem.equals(lastProblem)) {
      lastProblem = problem;
      LOG.log(Level.WARNING, problem);
    }
  }

  @Override
  public void close() {
    if (watcher != null) {
      watcher.close(); // first: a reload it is running must not switch stores meanwhile
    }
    synchronized (this) {
      if (jmx != null) {
        jmx.close();
      }
      fromRedis.close();
      retired.close();
      limiter.store().close();
    }
  }
}
