package dev.sluice.config;

import dev.sluice.core.PathPattern;
import dev.sluice.core.Rule;
import dev.sluice.core.Rules;
import java.util.ArrayList;
import java.util.List;

/**
 * Rules written without the application's context path: {@code /servlets/**} for an application
 * at {@code /examples} passes every check and matches nothing, because patterns match the whole
 * path. Where the context path is known (the Filter's application), such a rule is worth a
 * warning each time the rules are put in force.
 */
final class ContextPathCheck {
  private ContextPathCheck() {}

  /** The warning for the rules that can match no path under {@code contextPath}; else null. */
  static String warning(Rules rules, String contextPath) {
    if (contextPath == null || contextPath.isEmpty()) {
      return null;
    }
    List<Rule> unreachable = new ArrayList<>();
    List<String> named = new ArrayList<>();
    for (Rule rule : rules.rules()) {
      if (!canMatchUnder(rule, contextPath)) {
        unreachable.add(rule);
        named.add(rule.id() + " (" + rule.paths().get(0) + ")");
      }
    }
    if (unreachable.isEmpty()) {
      return null;
    }
    PathPattern example = unreachable.get(0).paths().get(0);
    return "Sluice: rule"
        + (named.size() == 1 ? " " : "s ")
        + String.join(", ", named)
        + (named.size() == 1 ? " matches" : " match")
        + " no request of this application: rule paths include the context path, and every"
        + " path here starts with "
        + contextPath
        + "; write "
        + contextPath
        + example
        + ", or /*"
        + example
        + " for any application";
  }

  private static boolean canMatchUnder(Rule rule, String contextPath) {
    for (PathPattern path : rule.paths()) {
      if (path.canMatchUnder(contextPath)) {
        return true;
      }
    }
    return false;
  }
}
