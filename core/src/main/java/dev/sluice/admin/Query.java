package dev.sluice.admin;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A query string's parameters, decoded as a form is ({@code +} a space, {@code %XX} a UTF-8 byte),
 * each name with its values in order. Junk decodes to something, never to an error: a {@code %} not
 * followed by two hex digits stays itself.
 */
final class Query {
  private final Map<String, List<String>> parameters = new LinkedHashMap<>();

  Query(String raw) {
    if (raw == null) {
      return;
    }
    for (String pair : raw.split("&")) {
      if (pair.isEmpty()) {
        continue;
      }
      int equals = pair.indexOf('=');
      String name = decode(equals < 0 ? pair : pair.substring(0, equals));
      String value = equals < 0 ? "" : decode(pair.substring(equals + 1));
      List<String> values = parameters.get(name);
      if (values == null) {
        values = new ArrayList<>(1);
        parameters.put(name, values);
      }
      values.add(value);
    }
  }

  /** The first value of {@code name}, or {@code fallback}. */
  String get(String name, String fallback) {
    List<String> values = parameters.get(name);
    return values == null ? fallback : values.get(0);
  }

  Map<String, List<String>> all() {
    return Collections.unmodifiableMap(parameters);
  }

  static String decode(String text) {
    if (text.indexOf('%') < 0 && text.indexOf('+') < 0) {
      return text;
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(text.length());
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      int high = i + 2 < text.length() ? Character.digit(text.charAt(i + 1), 16) : -1;
      int low = high >= 0 ? Character.digit(text.charAt(i + 2), 16) : -1;
      if (c == '%' && low >= 0) {
        bytes.write(high * 16 + low);
        i += 2;
      } else if (c == '+') {
        bytes.write(' ');
      } else {
        int chars = Character.charCount(text.codePointAt(i));
        byte[] utf8 = text.substring(i, i + chars).getBytes(StandardCharsets.UTF_8);
        bytes.write(utf8, 0, utf8.length);
        i += chars - 1;
      }
    }
    return new String(bytes.toByteArray(), StandardCharsets.UTF_8);
  }
}
