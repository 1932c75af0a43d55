package dev.sluice.simulate;

import java.util.Locale;

/**
 * Just enough JSON for a report, written in one pass: objects, arrays, strings, numbers and
 * booleans, with the commas kept track of. The engine ships no JSON library, and a report needs
 * none.
 */
final class JsonWriter {
  private final StringBuilder out = new StringBuilder();

  /** Whether the container being written still has no member: no comma before the next. */
  private boolean first = true;

  JsonWriter beginObject() {
    return open('{');
  }

  JsonWriter endObject() {
    return close('}');
  }

  JsonWriter beginArray() {
    return open('[');
  }

  JsonWriter endArray() {
    return close(']');
  }

  /** The name of the next member of an object. */
  JsonWriter name(String name) {
    separate();
    string(name).append(':');
    first = true; // its value needs no comma
    return this;
  }

  JsonWriter value(String value) {
    separate();
    if (value == null) {
      out.append("null");
    } else {
      string(value);
    }
    return this;
  }

  JsonWriter value(long value) {
    separate();
    out.append(value);
    return this;
  }

  JsonWriter value(double value) {
    separate();
    out.append(value);
    return this;
  }

  JsonWriter value(boolean value) {
    separate();
    out.append(value);
    return this;
  }

  private JsonWriter open(char bracket) {
    separate();
    out.append(bracket);
    first = true;
    return this;
  }

  private JsonWriter close(char bracket) {
    out.append(bracket);
    first = false;
    return this;
  }

  private void separate() {
    if (!first) {
      out.append(',');
    }
    first = false;
  }

  /** A quoted string, escaped as RFC 8259 asks: quote, backslash and control characters. */
  private StringBuilder string(String s) {
    out.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '"' || c == '\\') {
        out.append('\\').append(c);
      } else if (c < 0x20) {
        out.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
      } else {
        out.append(c);
      }
    }
    return out.append('"');
  }

  @Override
  public String toString() {
    return out.toString();
  }
}
