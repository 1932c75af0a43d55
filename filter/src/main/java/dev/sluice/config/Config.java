package dev.sluice.config;

import dev.sluice.core.Rules;

/** A valid ratelimit.yaml: the rules to apply and the store to keep counts in. */
public final class Config {
  private final StoreSettings store;
  private final Rules rules;

  Config(StoreSettings store, Rules rules) {
    this.store = store;
    this.rules = rules;
  }

  public StoreSettings store() {
    return store;
  }

  public Rules rules() {
    return rules;
  }
}
