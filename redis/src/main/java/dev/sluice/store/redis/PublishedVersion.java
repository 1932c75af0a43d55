package dev.sluice.store.redis;

import dev.sluice.store.RulesPublication;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;

/**
 * One version of ratelimit.yaml published in Redis ({@link PublishedRules}): its content and rules
 * version, and who published it, when, from where and why. Text that came from Redis is shown as it
 * is but for control characters, which become spaces: a message must not forge a log line.
 */
public final class PublishedVersion implements RulesPublication.Version {
  private final long number;
  private final byte[] content;
  private final String rulesVersion;
  private final long millis;
  private final String who;
  private final String where;
  private final String message;
  private final long rollbackOf;
  private final String refused;

  private PublishedVersion(
      long number,
      byte[] content,
      String rulesVersion,
      long millis,
      String who,
      String where,
      String message,
      long rollbackOf,
      String refused) {
    this.number = number;
    this.content = content;
    this.rulesVersion = rulesVersion;
    this.millis = millis;
    this.who = who;
    this.where = where;
    this.message = message;
    this.rollbackOf = rollbackOf;
    this.refused = refused;
  }

  /**
   * A version from the fields of its hash, in the order of {@link PublishedRules}' field names (the
   * content last, when it was read), {@code refused} saying which field was too large to be read
   * (null when none was; such a field is null in {@code fields}); null when Redis holds none.
   */
  static PublishedVersion of(long number, List<byte[]> fields, String refused) {
    boolean any = refused != null;
    for (byte[] field : fields) {
      any |= field != null;
    }
    if (!any) {
      return null;
    }
    return new PublishedVersion(
        number,
        fields.size() > 6 ? fields.get(6) : null,
        text(fields.get(0)),
        whole(fields.get(1)),
        text(fields.get(2)),
        text(fields.get(3)),
        text(fields.get(4)),
        whole(fields.get(5)),
        refused);
  }

  private static String text(byte[] field) {
    if (field == null) {
      return "";
    }
    char[] chars = new String(field, StandardCharsets.UTF_8).toCharArray();
    for (int i = 0; i < chars.length; i++) {
      if (chars[i] < ' ' || chars[i] == 127) {
        chars[i] = ' ';
      }
    }
    return new String(chars);
  }

  /** A number Redis holds; 0 when it holds none or something else (written by hand, say). */
  private static long whole(byte[] field) {
    try {
      return field == null ? 0 : Long.parseLong(new String(field, StandardCharsets.UTF_8));
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  /** 1 for the first version ever published under a key prefix, then 2, 3, ... */
  public long number() {
    return number;
  }

  /**
   * The file as pushed, byte for byte; null in a {@link PublishedRules#history} listing, and when
   * it was too large to be read ({@link #refused}).
   */
  public byte[] content() {
    return content;
  }

  /**
   * Which field of this version Redis holds more of than was to be read, and how much ({@code its
   * content is 4194304 bytes, more than the 1048576 Sluice reads}); null when every field was read.
   * A version some field of which was not read is not to be put in force.
   */
  public String refused() {
    return refused;
  }

  /** The rules version push computed: the first 12 hex digits of the content's SHA-256. */
  public String rulesVersion() {
    return rulesVersion;
  }

  /** When it was published, by the Redis clock, in UTC to the second: 2025-06-01T10:22:03Z. */
  public String time() {
    return Instant.ofEpochMilli(millis).truncatedTo(ChronoUnit.SECONDS).toString();
  }

  /** The user who published it. */
  public String who() {
    return who;
  }

  /** The host it was published from. */
  public String where() {
    return where;
  }

  /**
   * The message given, "rollback to version N" first for a rollback, "not read: " and why first for
   * a version a field of which was too large to be read; may be empty.
   */
  public String note() {
    String note =
        rollbackOf == 0
            ? message
            : "rollback to version " + rollbackOf + (message.isEmpty() ? "" : ": " + message);
    return refused == null ? note : "not read: " + refused + (note.isEmpty() ? "" : "; " + note);
  }

  /**
   * How logs name it: {@code version 12 (pushed by alice on laptop at 2025-06-01T10:22:03Z: raise
   * login)}; only {@code version 12} when Redis holds nothing of where it came from (its content
   * was written by hand).
   */
  public String describe() {
    if (millis == 0 && who.isEmpty() && where.isEmpty()) {
      return "version " + number;
    }
    String note = note();
    return "version "
        + number
        + " ("
        + (rollbackOf == 0 ? "pushed" : "published")
        + " by "
        + who
        + " on "
        + where
        + " at "
        + time()
        + (note.isEmpty() ? "" : ": " + note)
        + ")";
  }
}
