package dev.sluice.http;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A strict parser of RFC 9651 List fields, written from its section 4.2 step by step, so the tests
 * judge Sluice's fields by the RFC rather than by Sluice's own serializer. It fails (with {@link
 * IllegalArgumentException}) wherever the RFC says "fail parsing".
 */
final class StructuredFieldParser {
  /** A member of a List: a bare item (or an inner list of items) with its parameters. */
  record Member(Object value, Map<String, Object> parameters) {}

  /** An sf-token, kept apart from an sf-string. */
  record Token(String value) {}

  /** An sf-date: seconds since the epoch. */
  record Date(long seconds) {}

  /** An sf-displaystring: Unicode text. */
  record DisplayString(String value) {}

  private final String in;
  private int at;

  private StructuredFieldParser(String in) {
    this.in = in;
  }

  /** Section 4.2 with field_type "list". */
  static List<Member> list(String field) {
    StructuredFieldParser p = new StructuredFieldParser(field);
    if (!StandardCharsets.US_ASCII.newEncoder().canEncode(field)) {
      throw p.fail("a field is ASCII");
    }
    p.skipSpaces();
    List<Member> members = p.members();
    p.skipSpaces();
    if (!p.done()) {
      throw p.fail("trailing characters");
    }
    return members;
  }

  /** Section 4.2.1. */
  private List<Member> members() {
    List<Member> members = new ArrayList<>();
    while (!done()) {
      members.add(peek() == '(' ? innerList() : item());
      skipWhitespace();
      if (done()) {
        return members;
      }
      expect(',');
      skipWhitespace();
      if (done()) {
        throw fail("a list ends with a comma");
      }
    }
    return members;
  }

  /** Section 4.2.1.2. */
  private Member innerList() {
    expect('(');
    List<Member> items = new ArrayList<>();
    while (!done()) {
      skipSpaces();
      if (peek() == ')') {
        at++;
        return new Member(items, parameters());
      }
      items.add(item());
      if (done() || (peek() != ' ' && peek() != ')')) {
        throw fail("inner list items are separated by spaces");
      }
    }
    throw fail("an inner list without its )");
  }

  /** Section 4.2.3. */
  private Member item() {
    Object value = bareItem();
    return new Member(value, parameters());
  }

  /** Section 4.2.3.1. */
  private Object bareItem() {
    char c = done() ? 0 : peek();
    if (c == '-' || isDigit(c)) {
      return number();
    }
    if (c == '"') {
      return string();
    }
    if (isAlpha(c) || c == '*') {
      return token();
    }
    if (c == ':') {
      return byteSequence();
    }
    if (c == '?') {
      return bool();
    }
    if (c == '@') {
      at++;
      Object seconds = number();
      if (!(seconds instanceof Long)) {
        throw fail("a date is an integer");
      }
      return new Date((Long) seconds);
    }
    if (c == '%') {
      return displayString();
    }
    throw fail("no bare item starts with '" + c + "'");
  }

  /** Section 4.2.3.2: later duplicates overwrite earlier ones, in the first one's place. */
  private Map<String, Object> parameters() {
    Map<String, Object> parameters = new LinkedHashMap<>();
    while (!done() && peek() == ';') {
      at++;
      skipSpaces();
      String key = key();
      Object value = Boolean.TRUE;
      if (!done() && peek() == '=') {
        at++;
        value = bareItem();
      }
      parameters.put(key, value);
    }
    return parameters;
  }

  /** Section 4.2.3.3. */
  private String key() {
    if (done() || !(isLcAlpha(peek()) || peek() == '*')) {
      throw fail("a key starts with a lower-case letter or *");
    }
    int start = at;
    while (!done() && (isLcAlpha(peek()) || isDigit(peek()) || "_-.*".indexOf(peek()) >= 0)) {
      at++;
    }
    return in.substring(start, at);
  }

  /** Section 4.2.4: an Integer (Long) or a Decimal (BigDecimal). */
  private Object number() {
    int start = at;
    if (peek() == '-') {
      at++;
    }
    if (done() || !isDigit(peek())) {
      throw fail("a number needs a digit");
    }
    int point = -1;
    while (!done() && (isDigit(peek()) || (peek() == '.' && point < 0))) {
      if (peek() == '.') {
        if (at - start - (in.charAt(start) == '-' ? 1 : 0) > 12) {
          throw fail("a decimal has at most 12 integer digits");
        }
        point = at;
      }
      at++;
      int digits = at - start - (in.charAt(start) == '-' ? 1 : 0);
      if (point < 0 && digits > 15) {
        throw fail("an integer has at most 15 digits");
      }
      if (point >= 0 && digits > 16) {
        throw fail("a decimal has at most 16 characters");
      }
    }
    String text = in.substring(start, at);
    if (point < 0) {
      return Long.parseLong(text);
    }
    int fraction = at - point - 1;
    if (fraction < 1 || fraction > 3) {
      throw fail("a decimal has 1 to 3 fractional digits");
    }
    return new BigDecimal(text);
  }

  /** Section 4.2.5. */
  private String string() {
    expect('"');
    StringBuilder out = new StringBuilder();
    while (!done()) {
      char c = in.charAt(at++);
      if (c == '\\') {
        if (done() || (peek() != '"' && peek() != '\\')) {
          throw fail("only \" and \\ may be escaped");
        }
        out.append(in.charAt(at++));
      } else if (c == '"') {
        return out.toString();
      } else if (c < 0x20 || c > 0x7E) {
        throw fail("a string holds printable ASCII only");
      } else {
        out.append(c);
      }
    }
    throw fail("a string without its closing quote");
  }

  /** Section 4.2.6. */
  private Token token() {
    int start = at++;
    while (!done() && (isTchar(peek()) || peek() == ':' || peek() == '/')) {
      at++;
    }
    return new Token(in.substring(start, at));
  }

  /** Section 4.2.7. */
  private byte[] byteSequence() {
    expect(':');
    int end = in.indexOf(':', at);
    if (end < 0) {
      throw fail("a byte sequence without its closing colon");
    }
    String base64 = in.substring(at, end);
    if (!base64.matches("[A-Za-z0-9+/=]*")) {
      throw fail("a byte sequence is base64");
    }
    at = end + 1;
    return Base64.getDecoder().decode(base64);
  }

  /** Section 4.2.8. */
  private Boolean bool() {
    expect('?');
    if (!done() && (peek() == '0' || peek() == '1')) {
      return in.charAt(at++) == '1';
    }
    throw fail("a boolean is ?0 or ?1");
  }

  /** Section 4.2.10. */
  private DisplayString displayString() {
    expect('%');
    expect('"');
    ByteBuffer bytes = ByteBuffer.allocate(in.length());
    while (!done()) {
      char c = in.charAt(at++);
      if (c < 0x20 || c > 0x7E) {
        throw fail("a display string holds printable ASCII only");
      }
      if (c == '%') {
        if (at + 2 > in.length() || !in.substring(at, at + 2).matches("[0-9a-f]{2}")) {
          throw fail("% is followed by two lower-case hex digits");
        }
        bytes.put((byte) Integer.parseInt(in.substring(at, at + 2), 16));
        at += 2;
      } else if (c == '"') {
        bytes.flip();
        try {
          return new DisplayString(
              StandardCharsets.UTF_8
                  .newDecoder()
                  .onMalformedInput(CodingErrorAction.REPORT)
                  .decode(bytes)
                  .toString());
        } catch (CharacterCodingException e) {
          throw fail("a display string is UTF-8");
        }
      } else {
        bytes.put((byte) c);
      }
    }
    throw fail("a display string without its closing quote");
  }

  private boolean done() {
    return at >= in.length();
  }

  private char peek() {
    return in.charAt(at);
  }

  private void expect(char c) {
    if (done() || peek() != c) {
      throw fail("expected '" + c + "'");
    }
    at++;
  }

  private void skipSpaces() {
    while (!done() && peek() == ' ') {
      at++;
    }
  }

  /** OWS: spaces and tabs. */
  private void skipWhitespace() {
    while (!done() && (peek() == ' ' || peek() == '\t')) {
      at++;
    }
  }

  private IllegalArgumentException fail(String why) {
    return new IllegalArgumentException(why + " at " + at + " of [" + in + "]");
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  private static boolean isAlpha(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
  }

  private static boolean isLcAlpha(char c) {
    return c >= 'a' && c <= 'z';
  }

  private static boolean isTchar(char c) {
    return isAlpha(c) || isDigit(c) || "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
  }
}
