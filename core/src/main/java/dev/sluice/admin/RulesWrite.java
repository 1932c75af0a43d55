package dev.sluice.admin;

/** A write to the endpoint's {@code /rules}, by a write credential, as it came. */
public final class RulesWrite {
  /** What a write does. */
  public enum Kind {
    /** {@code PUT /rules}: a whole document. */
    REPLACE,
    /** {@code POST /rules}: one rule added. */
    ADD,
    /** {@code PUT /rules/{id}}: one rule replaced. */
    UPDATE,
    /** {@code DELETE /rules/{id}}: one rule removed. */
    DELETE
  }

  private final Kind kind;
  private final String id;
  private final byte[] content;
  private final String ifMatch;
  private final String who;
  private final String from;
  private final String message;

  RulesWrite(
      Kind kind,
      String id,
      byte[] content,
      String ifMatch,
      String who,
      String from,
      String message) {
    this.kind = kind;
    this.id = id;
    this.content = content;
    this.ifMatch = ifMatch;
    this.who = who;
    this.from = from;
    this.message = printable(message);
  }

  /**
   * {@code text} without control characters, line and paragraph separators or invisible format
   * characters: the message and the id come from the caller and are logged (the message recorded
   * in the history too), where a newline would forge a log line and a bidi override hide what was
   * written.
   */
  public static String printable(String text) {
    return text.replaceAll("[\\p{Cc}\\p{Cf}\\p{Zl}\\p{Zp}]", "");
  }

  public Kind kind() {
    return kind;
  }

  /** The rule's id in the path; null for {@link Kind#REPLACE} and {@link Kind#ADD}. */
  public String id() {
    return id;
  }

  /** The body: a document, or one rule; empty for {@link Kind#DELETE}. YAML, or JSON read so. */
  public byte[] content() {
    return content;
  }

  /** The entity tag the write was based on, as {@code If-Match} gave it (quotes included). */
  public String ifMatch() {
    return ifMatch;
  }

  /** The name of the write credential. */
  public String who() {
    return who;
  }

  /** The caller's address, as the endpoint found it. */
  public String from() {
    return from;
  }

  /** Why, from the {@code message} query parameter; empty when none was given. */
  public String message() {
    return message;
  }

  /** What the write did, for the log: {@code added rule login}. */
  public String describe() {
    switch (kind) {
      case REPLACE:
        return "replaced the whole document";
      case ADD:
        return "added a rule";
      case UPDATE:
        return "replaced rule " + printable(id);
      default:
        return "deleted rule " + printable(id);
    }
  }
}
