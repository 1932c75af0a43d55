package dev.sluice.config;

import dev.sluice.admin.AdminSettings;
import dev.sluice.core.ClientIp;
import dev.sluice.core.Rules;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A valid ratelimit.yaml: the rules to apply, the store to keep counts in, and whether Sluice is
 * enabled at all ({@code enabled: false} is the kill switch: every request passes, unlimited).
 */
public final class Config {
  private final StoreSettings store;
  private final boolean storeGiven;
  private final boolean rulesFromRedis;
  private final Rules rules;
  private final boolean enabled;
  private final List<ConfigError> warnings;
  private final MetricsSettings metrics;
  private final AdminSettings admin;
  private final long shadowForMicros;

  /**
   * @param storeGiven whether the file has a store or fleet section, or took the defaults
   * @param rulesFromRedis whether the file says {@code rules_from: redis}
   */
  Config(
      StoreSettings store,
      boolean storeGiven,
      boolean rulesFromRedis,
      Rules rules,
      boolean enabled,
      List<ConfigError> warnings,
      MetricsSettings metrics,
      AdminSettings admin,
      long shadowForMicros) {
    this.store = store;
    this.storeGiven = storeGiven;
    this.rulesFromRedis = rulesFromRedis;
    this.rules = rules;
    this.enabled = enabled;
    this.warnings = Collections.unmodifiableList(warnings);
    this.metrics = metrics;
    this.admin = admin;
    this.shadowForMicros = shadowForMicros;
  }

  /**
   * This config as published in Redis, put in force by a JVM whose local file is {@code local}: the
   * store, fleet and {@code rules_from} stay the local file's, so that no push can change how the
   * JVMs reach Redis (and cut them off from it); so do {@code client_ip} and {@code admin}, so that
   * whoever can write Redis (every JVM of the fleet can) cannot make the JVMs believe any client's
   * {@code X-Forwarded-For}, nor open their endpoints. Everything else is this one's.
   */
  Config publishedUnder(Config local) {
    return new Config(
        local.store,
        local.storeGiven,
        local.rulesFromRedis,
        rules.with(local.rules.clientIp()),
        enabled,
        warnings,
        metrics,
        local.admin,
        shadowForMicros);
  }

  /**
   * The sections of this file, published, that JVMs whose file is {@code local} keep of their own
   * while this one's differ (see {@link #publishedUnder}): valid, but not applied. Named as a
   * phrase, "store or fleet, client_ip and admin sections"; null when there are none. A section
   * this file leaves out is not named. With no {@code local} to compare with, every such section
   * the file sets.
   */
  public String localSectionsDifferingFrom(Config local) {
    List<String> names = new ArrayList<>();
    if (storeGiven && (local == null || !store.equals(local.store))) {
      names.add("store or fleet");
    }
    // A section this file does not set (client_ip as the default) differs from nothing: a published
    // file without an admin section must not be said to have one other than the local file's.
    ClientIp unset = Rules.NONE.clientIp();
    ClientIp theirs = local == null ? unset : local.rules.clientIp();
    if (!rules.clientIp().equals(unset) && !rules.clientIp().equals(theirs)) {
      names.add("client_ip");
    }
    if (admin != null && !admin.sameSectionAs(local == null ? null : local.admin)) {
      names.add("admin");
    }
    if (names.isEmpty()) {
      return null;
    }
    int last = names.size() - 1;
    return (last == 0 ? "" : String.join(", ", names.subList(0, last)) + " and ")
        + names.get(last)
        + " sections";
  }

  /**
   * True when the file says {@code rules_from: redis}: the JVM takes everything but the store,
   * fleet, client_ip, admin and this field from the version published in the store's Redis.
   */
  public boolean rulesFromRedis() {
    return rulesFromRedis;
  }

  /** False when the file says {@code enabled: false}; its rules are still checked, not applied. */
  public boolean enabled() {
    return enabled;
  }

  public StoreSettings store() {
    return store;
  }

  public Rules rules() {
    return rules;
  }

  MetricsSettings metrics() {
    return metrics;
  }

  /** {@code rollout.shadow_for}: how long a rule a reload adds or changes runs in shadow; or 0. */
  long shadowForMicros() {
    return shadowForMicros;
  }

  /** The admin endpoint's settings; null when the file has no {@code admin} section. */
  AdminSettings admin() {
    return admin;
  }

  /** What is valid but likely not meant, e.g. a rule's limit for a tier no request can have. */
  public List<ConfigError> warnings() {
    return warnings;
  }
}
