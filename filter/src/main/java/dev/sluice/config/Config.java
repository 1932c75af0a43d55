package dev.sluice.config;

import dev.sluice.core.Rules;

/**
 * A valid ratelimit.yaml: the rules to apply, the store to keep counts in, and whether Sluice is
 * enabled at all ({@code enabled: false} is the kill switch: every request passes, unlimited).
 */
public final class Config {
  private final StoreSettings store;
  private final Rules rules;
  private final boolean enabled;

  Config(StoreSettings store, Rules rules, boolean enabled) {
    this.store = store;
    this.rules = rules;
    this.enabled = enabled;
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
}
