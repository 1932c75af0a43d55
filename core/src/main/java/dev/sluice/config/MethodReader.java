package dev.sluice.config;

import dev.sluice.support.Nearest;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Reads {@code match.methods}. A misspelt method would never match, so it silently turned its rule
 * off; only the known methods are accepted, and an empty list, which reads as "none" but would
 * match all, is an error too.
 */
final class MethodReader {
  /** RFC 9110's methods and PATCH: a name outside them is a typo far more often than WebDAV. */
  private static final String[] KNOWN = {
    "GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH"
  };

  private MethodReader() {}

  /** The methods of {@code match} in upper case, HEAD with GET; empty (all) when not given. */
  static Set<String> read(Fields match, Problems problems) {
    Set<String> methods = new LinkedHashSet<>();
    List<Fields.Value> given = match.values("methods");
    if (given != null && RuleReader.isEmptyList(match.where("methods"))) {
      problems.at(
          match.where("methods"),
          match.pathOf("methods"),
          "an empty list is no method at all; list the methods, or remove methods to match every"
              + " method");
    }
    for (Fields.Value method : given == null ? Collections.<Fields.Value>emptyList() : given) {
      String name = method.text.toUpperCase(Locale.ROOT);
      if (!Arrays.asList(KNOWN).contains(name)) {
        problems.at(
            method.node,
            method.path,
            "\""
                + method.text
                + "\" is not an HTTP method"
                + Nearest.hint(name, KNOWN)
                + " (known: "
                + String.join(", ", KNOWN)
                + ")");
      }
      methods.add(name);
    }
    if (methods.contains("GET")) {
      methods.add("HEAD"); // servlets answer HEAD by running doGet: the same work, the same limit
    }
    return methods;
  }
}
