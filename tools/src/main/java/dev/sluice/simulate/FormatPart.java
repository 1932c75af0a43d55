package dev.sluice.simulate;

import java.util.ArrayList;
import java.util.List;

/** One part of an access log pattern: the text between fields, or a field such as {@code %h}. */
final class FormatPart {
  /** The text to match, or null for a field. */
  final String literal;

  /** The field's letter ({@code h}, {@code t}, {@code i}...), or 0 for text. */
  final char field;

  /** The header of {@code %{X-API-Key}i}, else null. */
  final String header;

  /** Which of the pattern's headers {@link #header} is. */
  final int headerIndex;

  /** The field stands between quotes: it ends at a quote the log did not escape. */
  private final boolean quoted;

  /** As the pattern writes it, for messages. */
  private final String text;

  private FormatPart(
      String literal, char field, String header, int headerIndex, boolean quoted, String text) {
    this.literal = literal;
    this.field = field;
    this.header = header;
    this.headerIndex = headerIndex;
    this.quoted = quoted;
    this.text = text;
  }

  /**
   * The parts of {@code pattern}. Any field letter is taken ({@code %s}, {@code %D}, {@code %v}...)
   * and skipped unless a request needs it; {@code %{X}i} is a request header; {@code %%} is a
   * percent sign, and Apache's {@code %>s} the status.
   *
   * @throws IllegalArgumentException naming what cannot be read
   */
  static List<FormatPart> compile(String pattern) {
    List<FormatPart> parts = new ArrayList<>();
    StringBuilder literal = new StringBuilder();
    int headers = 0;
    for (int i = 0; i < pattern.length(); i++) {
      char c = pattern.charAt(i);
      if (c != '%' || pattern.startsWith("%%", i)) {
        literal.append(c);
        i += c == '%' ? 1 : 0;
        continue;
      }
      int start = i;
      String argument = null;
      if (pattern.startsWith("{", i + 1)) {
        int close = pattern.indexOf('}', i + 2);
        if (close < 0) {
          throw new IllegalArgumentException("\"%{\" at column " + (i + 1) + " has no \"}\"");
        }
        argument = pattern.substring(i + 2, close);
        i = close;
      }
      while (i + 1 < pattern.length() && "<>".indexOf(pattern.charAt(i + 1)) >= 0) {
        i++;
      }
      if (i + 1 == pattern.length() || !Character.isLetter(pattern.charAt(i + 1))) {
        throw new IllegalArgumentException(
            "\"%\" at column " + (start + 1) + " is not followed by a field letter");
      }
      char field = pattern.charAt(++i);
      String text = pattern.substring(start, i + 1);
      check(field, argument, text);
      boolean quoted = false;
      if (literal.length() > 0) {
        quoted = literal.charAt(literal.length() - 1) == '"';
        parts.add(new FormatPart(literal.toString(), (char) 0, null, -1, false, null));
        literal.setLength(0);
      } else if (field == 'q' && parts.get(parts.size() - 1).field == 'U') {
        continue; // %U%q, the valve's way to log the target: %U takes both, its path drops the
        // query
      } else if (!parts.isEmpty()) {
        throw new IllegalArgumentException(
            text + " follows another field with no text between them: a line cannot be cut there");
      }
      String header = field == 'i' ? argument : null;
      parts.add(new FormatPart(null, field, header, header == null ? -1 : headers++, quoted, text));
    }
    if (literal.length() > 0) {
      parts.add(new FormatPart(literal.toString(), (char) 0, null, -1, false, null));
    }
    return parts;
  }

  private static void check(char field, String argument, String text) {
    if (field == 't' && argument != null) {
      throw new IllegalArgumentException(
          text + ": only %t's own time, [10/Oct/2000:13:55:36 -0700], can be replayed");
    }
    if (field == 'i' && (argument == null || argument.isEmpty())) {
      throw new IllegalArgumentException(text + " names no header: write %{X-API-Key}i");
    }
  }

  /** Refuses a pattern that lacks what every request needs: its time, peer, method and path. */
  static void requireFields(List<FormatPart> parts) {
    String letters = "";
    for (FormatPart part : parts) {
      letters += part.field == 0 ? "" : String.valueOf(part.field);
    }
    if (letters.indexOf('t') < 0) {
      throw new IllegalArgumentException("the pattern has no %t: a replay needs each line's time");
    }
    if (letters.indexOf('h') < 0 && letters.indexOf('a') < 0) {
      throw new IllegalArgumentException("the pattern has no %h or %a: who sent each request?");
    }
    if (letters.indexOf('r') < 0 && (letters.indexOf('m') < 0 || letters.indexOf('U') < 0)) {
      throw new IllegalArgumentException("the pattern needs %r, or %m and %U: method and path");
    }
  }

  /**
   * Where this field, starting at {@code pos}, ends in {@code line}, given the text that follows it
   * in the pattern (null when it is last); -1 when the line does not fit.
   */
  int end(String line, int pos, String next) {
    if (field == 't') {
      int close = line.startsWith("[", pos) ? line.indexOf(']', pos) : -1;
      return close < 0 ? -1 : close + 1;
    }
    if (next == null) {
      int end = line.length();
      while (end > pos && line.charAt(end - 1) <= ' ') {
        end--; // a trailing \r or blank is no part of a value
      }
      return end;
    }
    if (quoted && next.charAt(0) == '"') {
      for (int q = line.indexOf('"', pos); q >= 0; q = line.indexOf('"', q + 1)) {
        if (!escaped(line, pos, q) && line.startsWith(next, q)) {
          return q;
        }
      }
      return -1;
    }
    return line.indexOf(next, pos);
  }

  /** Whether the character at {@code at} follows an odd run of backslashes, since {@code from}. */
  private static boolean escaped(String line, int from, int at) {
    int i = at;
    while (i > from && line.charAt(i - 1) == '\\') {
      i--;
    }
    return (at - i) % 2 == 1;
  }

  @Override
  public String toString() {
    return literal != null ? literal : text;
  }
}
