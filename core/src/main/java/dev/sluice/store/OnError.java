package dev.sluice.store;

/** What a rule does when its shared store cannot answer. */
public enum OnError {
  /** Decide locally with this JVM's share of the limit. */
  FAIL_OPEN,
  /** Deny with Retry-After: 1 (login, SMS, payments). */
  FAIL_CLOSED
}
