package dev.sluice.core;

/**
 * When in a request's way through the application its rules are decided. A rule whose key reads the
 * user (alone, in a composite or among alternatives) can only be decided once the application's own
 * login has run, which sets the user; every other rule is decided as the request enters, before any
 * application code. Each phase is all or nothing on its own rules; a request allowed by the first
 * and denied by the second keeps what the first took.
 */
public enum Phase {
  /** Every rule at once: where no later point is known to the caller. */
  ALL,
  /** As the request enters: every rule but those keyed by the user. */
  ENTRY,
  /** Once the application's login has run: only the rules keyed by the user. */
  AFTER_LOGIN;

  /** Whether {@code rule} is decided in this phase. */
  public boolean decides(Rule rule) {
    return this == ALL || rule.key().readsUser() == (this == AFTER_LOGIN);
  }
}
