package dev.sluice.store;

/**
 * The versions of ratelimit.yaml published in Redis for a whole fleet, as a JVM whose file says
 * {@code rules_from: redis} follows them and the admin endpoint publishes one; opened through
 * {@link RedisModule#publishedRules}.
 */
public interface RulesPublication extends AutoCloseable {
  /** The current version's number; 0 when none was ever published (or Redis lost them). */
  long current();

  /** The rules version Redis records with version {@code number}; empty when it records none. */
  String rulesVersion(long number);

  /** Version {@code number}, each field only if at most {@code maxBytes}; null when not kept. */
  Version read(long number, int maxBytes);

  /**
   * Publishes {@code content} as the new current version, but only while version {@code basedOn} is
   * current (0: while none is published), checked in the same atomic step.
   *
   * @return the new version's number, 0 when the content was current, -1 when {@code basedOn} is
   *     not current and nothing was published
   */
  long publishOver(
      long basedOn, byte[] content, String rulesVersion, String who, String from, String message);

  @Override
  void close();

  /** One published version, as config reads it. */
  interface Version {
    /** The file as pushed, byte for byte; null when too large to be read ({@link #refused}). */
    byte[] content();

    /** Which field was too large to be read, and how large; null when every field was read. */
    String refused();

    /** The rules version push computed. */
    String rulesVersion();

    /** How logs name it: {@code version 12 (pushed by alice on laptop at ...)}. */
    String describe();
  }
}
