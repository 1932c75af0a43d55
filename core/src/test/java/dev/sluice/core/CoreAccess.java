package dev.sluice.core;

/**
 * Lets tests of other packages (the config parser's) ask what the package-private parts of core
 * make of parsed rules, without widening the production API.
 */
public final class CoreAccess {
  private CoreAccess() {}

  /** Whether {@code rule} applies to a request of {@code method} for the raw URI {@code path}. */
  public static boolean matches(Rule rule, String method, String path) {
    return rule.matches(method, RequestPath.segments(path));
  }

  public static boolean isExcluded(Rules rules, String path) {
    return rules.isExcluded(RequestPath.segments(path));
  }

  /** The tier {@code rules} give {@code request}, or null. */
  public static String tierOf(Rules rules, RequestView request) {
    return rules.tiers().tierOf(new Subject(request, rules));
  }

  /** The identity {@code rule} counts {@code request} by, or null. */
  public static String identityOf(Rule rule, Rules rules, RequestView request) {
    return rule.key().identityOf(new Subject(request, rules));
  }
}
