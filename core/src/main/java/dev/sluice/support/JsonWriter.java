package dev.sluice.support;

/**
 * Writes JSON text in one pass, with the commas placed for the caller: Sluice's answers are small
 * and their shape fixed, so a library would add weight to the agent and nothing else. Strings are
 * escaped for any content (identities come from clients), including {@code <}, {@code >} and {@code
 * &}, so no value can close a script element or start markup wherever the text ends up, and
 * surrogates, so a lone one (a broken client string) survives as what it is.
 */
public final class JsonWriter {
  private final StringBuilder out = new StringBuilder(256);

  /** Whether the next value in the current object or array needs a comma before it. */
  private boolean comma;

  public JsonWriter beginObject() {
    value();
    out.append('{');
    comma = false;
    return this;
  }

  public JsonWriter endObject() {
    out.append('}');
    comma = true;
    return this;
  }

  public JsonWriter beginArray() {
    value();
    out.append('[');
    comma = false;
    return this;
  }

  public JsonWriter endArray() {
    out.append(']');
    comma = true;
    return this;
  }

  /** A member's name; its value follows. */
  public JsonWriter name(String name) {
    value();
    quote(name);
    out.append(':');
    comma = false;
    return this;
  }

  /** A string, or null. */
  public JsonWriter value(String text) {
    value();
    if (text == null) {
      out.append("null");
    } else {
      quote(text);
    }
    return this;
  }

  public JsonWriter value(long number) {
    value();
    out.append(number);
    return this;
  }

  /** A finite number; NaN and infinities, which JSON cannot carry, as null. */
  public JsonWriter value(double number) {
    value();
    out.append(Double.isNaN(number) || Double.isInfinite(number) ? "null" : String.valueOf(number));
    return this;
  }

  public JsonWriter value(boolean flag) {
    value();
    out.append(flag);
    return this;
  }

  @Override
  public String toString() {
    return out.toString();
  }

  private void value() {
    if (comma) {
      out.append(',');
    }
    comma = true;
  }

  private void quote(String text) {
    out.append('"');
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '"' || c == '\\') {
        out.append('\\').append(c);
      } else if (c < 0x20
          || c == '<'
          || c == '>'
          || c == '&'
          || c == 0x2028
          || c == 0x2029
          || Character.isSurrogate(c)) {
        out.append(String.format("\\u%04x", (int) c));
      } else {
        out.append(c);
      }
    }
    out.append('"');
  }
}
