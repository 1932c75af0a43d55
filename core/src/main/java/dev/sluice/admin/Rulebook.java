package dev.sluice.admin;

/**
 * The rules behind the endpoint's {@code /rules}: the document in force, and what a write does with
 * it. Implemented where the rules come from (the config), which the endpoint does not know.
 */
public interface Rulebook {
  /** The document in force, with its version as the ETag. */
  Reply read();

  /** Validates and makes {@code write}, or refuses it changing nothing; the reply says which. */
  Reply write(RulesWrite write);
}
