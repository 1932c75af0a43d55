package dev.sluice.config;

import dev.sluice.algo.Algorithm;
import dev.sluice.algo.Quota;
import dev.sluice.core.Delay;
import dev.sluice.core.Key;
import dev.sluice.core.Rule;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * What a reload changes in the rules, as its log line tells it: {@code added api (100/1m); changed
 * login (limit 5->10, window 1m->30s, counts start over); removed old}. A rule is its id, as for
 * the counters it keeps: the same id with other values is a change, listing each field from->to.
 * Counts start over when the algorithm or the window changes, since the store keeps a rule's
 * counters by id, algorithm and window; that is said, as it lets a burst through.
 */
final class RulesDiff {
  private final List<String> added = new ArrayList<>();
  private final List<String> changed = new ArrayList<>();
  private final List<String> removed = new ArrayList<>();

  private RulesDiff() {}

  static RulesDiff between(List<Rule> before, List<Rule> after) {
    Map<String, Rule> gone = new LinkedHashMap<>();
    for (Rule rule : before) {
      gone.put(rule.id(), rule);
    }
    RulesDiff diff = new RulesDiff();
    for (Rule rule : after) {
      Rule was = gone.remove(rule.id());
      if (was == null) {
        diff.added.add(brief(rule));
      } else {
        List<String> changes = changes(was, rule);
        if (!changes.isEmpty()) {
          diff.changed.add(rule.id() + " (" + String.join(", ", changes) + ")");
        }
      }
    }
    diff.removed.addAll(gone.keySet());
    return diff;
  }

  /** True when {@code was} and {@code is} limit alike: they differ in their mode at most. */
  static boolean limitsAlike(Rule was, Rule is) {
    List<String> changes = changes(was, is);
    return changes.isEmpty() || (changes.size() == 1 && changes.get(0).startsWith("mode "));
  }

  /**
   * The rules in brief, as the log lists those in force: {@code login (5/1m), api (9/1s, shadow)}.
   */
  static String inBrief(List<Rule> rules) {
    List<String> briefs = new ArrayList<>();
    for (Rule rule : rules) {
      briefs.add(brief(rule));
    }
    return String.join(", ", briefs);
  }

  private static String brief(Rule rule) {
    return rule.id()
        + " ("
        + rule.quota().limit()
        + "/"
        + window(rule)
        + (rule.shadow() ? ", shadow" : "")
        + ")";
  }

  private static List<String> changes(Rule was, Rule is) {
    List<String> changes = new ArrayList<>();
    change(changes, "path", was.paths(), is.paths());
    change(changes, "methods", methods(was), methods(is));
    change(changes, "key", key(was.key()), key(is.key()));
    change(changes, "algorithm", name(was.algorithm()), name(is.algorithm()));
    change(changes, "limit", was.quota().limit(), is.quota().limit());
    change(changes, "window", window(was), window(is));
    if (is.algorithm() == Algorithm.TOKEN_BUCKET && is.delay() == null && was.delay() == null) {
      // Elsewhere the burst is the limit: a change of it is the limit's, said already. With a
      // delay, the bucket is the delay's queue: its change is the delay's.
      change(changes, "burst", was.quota().burst(), is.quota().burst());
    }
    change(changes, "delay", delay(was), delay(is));
    change(changes, "tiers", tierLimits(was), tierLimits(is));
    change(changes, "cost", was.cost(), is.cost());
    change(changes, "on_error", name(was.onError()), name(is.onError()));
    change(changes, "mode", mode(was), mode(is));
    change(changes, "consistency", was.consistency(), is.consistency());
    if (was.algorithm() != is.algorithm() || !window(was).equals(window(is))) {
      changes.add("counts start over");
    }
    return changes;
  }

  private static void change(List<String> changes, String field, Object was, Object is) {
    if (!Objects.equals(was, is)) {
      changes.add(field + " " + was + "->" + is);
    }
  }

  private static String delay(Rule rule) {
    Delay d = rule.delay();
    return d == null
        ? "none"
        : "{max_wait "
            + d.maxWaitMicros() / 1_000
            + "ms, immediate "
            + d.immediate()
            + ", max_waiting "
            + d.maxWaiting()
            + "}";
  }

  private static String methods(Rule rule) {
    return rule.methods().isEmpty() ? "all" : rule.methods().toString();
  }

  /** A composite key in brackets, as the file writes it: its commas are not the list's. */
  private static String key(Key key) {
    String text = key.toString();
    return text.contains(",") ? "[" + text + "]" : text;
  }

  private static String name(Enum<?> value) {
    return value.name().toLowerCase(Locale.ROOT);
  }

  private static String window(Rule rule) {
    return Durations.format(rule.quota().windowMicros());
  }

  private static Map<String, Long> tierLimits(Rule rule) {
    Map<String, Long> limits = new TreeMap<>();
    for (Map.Entry<String, Quota> tier : rule.tierQuotas().entrySet()) {
      limits.put(tier.getKey(), tier.getValue().limit());
    }
    return limits;
  }

  private static String mode(Rule rule) {
    return rule.shadow() ? "shadow" : "enforcing";
  }

  /** The changes, or {@code no rule added, changed or removed}. */
  @Override
  public String toString() {
    List<String> parts = new ArrayList<>();
    list(parts, "added ", added);
    list(parts, "changed ", changed);
    list(parts, "removed ", removed);
    return parts.isEmpty() ? "no rule added, changed or removed" : String.join("; ", parts);
  }

  private static void list(List<String> parts, String what, List<String> rules) {
    if (!rules.isEmpty()) {
      parts.add(what + String.join(", ", rules));
    }
  }
}
