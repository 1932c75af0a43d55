package dev.sluice.config;

import dev.sluice.core.Limiter;
import dev.sluice.core.Rules;
import dev.sluice.store.Clock;
import dev.sluice.store.Store;
import java.io.Closeable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * A limiter that follows its ratelimit.yaml: a valid change is in force within about a second and
 * keeps the counters of unchanged rules; an invalid change is logged with all its errors and the
 * last good rules stay. No file at all means no limits (logged once) until one appears.
 *
 * <p>A valid change of the {@code store} section switches stores: requests from then on count in
 * the new store, afresh (counts cannot move between stores), and the old one is closed once the
 * requests still using it are done. So the first valid file chooses the store even when the file
 * was missing or invalid at start-up.
 */
public final class LiveLimiter implements Closeable {
  private static final Logger LOG = Logger.getLogger("dev.sluice.config");
  static final long POLL_MILLIS = 1_000;

  private final ConfigSource source;
  private final Function<StoreSettings, Store> opener;
  private final RetiredStores retired;
  private final Limiter limiter;
  private final ConfigWatcher watcher;
  private StoreSettings storeSettings;
  private Store store;
  private byte[] applied;
  private String lastProblem;

  private LiveLimiter(
      ConfigSource source, Clock clock, Function<StoreSettings, Store> opener, boolean watch) {
    this.source = source;
    this.opener = opener;
    this.retired = new RetiredStores(clock);
    Config first = load();
    this.storeSettings = first == null ? StoreSettings.DEFAULT : first.store();
    this.store = opener.apply(storeSettings);
    this.limiter = new Limiter(store);
    if (first != null) {
      apply(first);
    }
    this.watcher = watch ? new ConfigWatcher(source.file(), this::reload, POLL_MILLIS) : null;
  }

  /** Loads {@code source} and follows its changes on a daemon thread. */
  public static LiveLimiter start(ConfigSource source) {
    return new LiveLimiter(source, Clock.SYSTEM, settings -> settings.open(Clock.SYSTEM), true);
  }

  /** Loads {@code source} once; {@link #reload()} follows changes when called. For tests. */
  public static LiveLimiter manual(ConfigSource source, Clock clock) {
    return manual(source, clock, settings -> settings.open(clock));
  }

  /** {@link #manual(ConfigSource, Clock)} with stores from {@code opener}. */
  static LiveLimiter manual(
      ConfigSource source, Clock clock, Function<StoreSettings, Store> opener) {
    return new LiveLimiter(source, clock, opener, false);
  }

  public Limiter limiter() {
    return limiter;
  }

  /** Reads the source again and applies it if it changed and is valid; true if applied. */
  public synchronized boolean reload() {
    retired.closeDue();
    Config config = load();
    if (config == null) {
      return false;
    }
    apply(config);
    return true;
  }

  /** The new config if the content changed and is valid; null otherwise, after logging why. */
  private Config load() {
    byte[] content;
    try {
      content = source.read();
    } catch (IOException e) {
      report("Sluice cannot read " + source + " (" + e + "); the rules in force stay.");
      return null;
    }
    if (content == null) {
      report(
          "Sluice found no config at "
              + source
              + (applied == null
                  ? "; nothing is limited until it appears."
                  : "; the last rules read stay in force."));
      return null;
    }
    if (Arrays.equals(content, applied)) {
      lastProblem = null; // back to the rules in force: a problem that returns is news again
      return null;
    }
    try {
      Config config =
          ConfigParser.parse(source.name(), new String(content, StandardCharsets.UTF_8));
      applied = content;
      lastProblem = null;
      return config;
    } catch (InvalidConfigException e) {
      report(
          "Sluice rejected "
              + source
              + (applied == null
                  ? "; nothing is limited until it is " + "fixed"
                  : "; the last good rules stay in force")
              + ":\n"
              + e.getMessage());
      return null;
    }
  }

  private void apply(Config config) {
    // The kill switch limits nothing. The counters of the rules stay through one such apply (see
    // Limiter.apply), so switching back on soon resumes their counts.
    Rules rules = config.enabled() ? config.rules() : Rules.NONE;
    if (config.store().equals(storeSettings)) {
      limiter.apply(rules);
    } else {
      switchStore(config.store(), rules);
    }
    if (config.enabled()) {
      LOG.info("Sluice: " + rules.rules().size() + " rules in force from " + source);
    } else {
      LOG.warning("Sluice: disabled by `enabled: false` in " + source + "; nothing is limited");
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
    store = next;
  }

  /** Logs a problem once, not once per poll. */
  private void report(String problem) {
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
      retired.close();
      store.close();
    }
  }
}
