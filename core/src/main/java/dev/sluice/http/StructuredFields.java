package dev.sluice.http;

/**
 * Writes the two kinds of RFC 9651 structured-field values the RateLimit fields hold: a String item
 * and an Integer parameter. Anything else would be refused by a strict parser, which a client must
 * then ignore (the draft's "malformed fields MUST be ignored").
 */
final class StructuredFields {
  /** RFC 9651 Integers have at most 15 digits. */
  static final long MAX_INTEGER = 999_999_999_999_999L;

  private StructuredFields() {}

  /** Appends {@code value} as an sf-string: quoted, with {@code "} and {@code \} escaped. */
  static StringBuilder string(StringBuilder out, String value) {
    out.append('"');
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c < 0x20 || c > 0x7E) {
        throw new IllegalArgumentException("an sf-string holds printable ASCII only: " + value);
      }
      if (c == '"' || c == '\\') {
        out.append('\\');
      }
      out.append(c);
    }
    return out.append('"');
  }

  /** Appends the parameter {@code ;key=value}; {@code key} must be an sf-key. */
  static StringBuilder parameter(StringBuilder out, String key, long value) {
    if (value < 0 || value > MAX_INTEGER) {
      throw new IllegalArgumentException(key + "=" + value + " is no non-negative sf-integer");
    }
    return out.append(';').append(key).append('=').append(value);
  }
}
