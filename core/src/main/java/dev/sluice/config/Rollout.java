package dev.sluice.config;

import dev.sluice.core.Rule;
import dev.sluice.core.Rules;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The staged rollout ({@code rollout: { shadow_for: 10m }}): a rule that a reload adds, or changes
 * in what it limits, first runs in shadow for that long, counted and reported but never denying,
 * then enforces by itself. The trial ends on the config poll that follows its end, within a second.
 *
 * <p>Only a reload starts trials. The file a JVM starts with is in force as written: a JVM that
 * restarts must enforce at once the rules it enforced before, and it cannot tell them from new
 * ones. A rule the file itself marks {@code shadow: true} stays in shadow; turning that off
 * enforces at once (the operator's own promotion after a trial of their own), and so does a change
 * of nothing but the rule's mode.
 */
final class Rollout {
  /** Each rule on trial: when it enforces, in microseconds. */
  private final Map<String, Long> trials = new HashMap<>();

  /**
   * The rules {@code written} puts in force at {@code now}, those on trial in shadow, after {@code
   * before} (null at start-up) was in force as written.
   */
  Rules start(Rules written, List<Rule> before, long shadowForMicros, long now) {
    Map<String, Rule> was = new HashMap<>();
    for (Rule rule : before == null ? Collections.<Rule>emptyList() : before) {
      was.put(rule.id(), rule);
    }
    Map<String, Long> kept = new HashMap<>();
    for (Rule rule : written.rules()) {
      if (rule.shadow()) {
        continue;
      }
      Rule previous = was.get(rule.id());
      boolean alike = previous != null && RulesDiff.limitsAlike(previous, rule);
      Long trial = trials.get(rule.id());
      if (before != null && shadowForMicros > 0 && !alike) {
        kept.put(rule.id(), now + shadowForMicros);
      } else if (trial != null && alike) {
        kept.put(rule.id(), trial);
      }
    }
    trials.clear();
    trials.putAll(kept);
    return inForce(written);
  }

  /** The ids of the trials over at {@code now}, which then end; empty when none is. */
  List<String> end(long now) {
    List<String> over = new ArrayList<>();
    for (Map.Entry<String, Long> trial : trials.entrySet()) {
      if (trial.getValue() <= now) {
        over.add(trial.getKey());
      }
    }
    trials.keySet().removeAll(over);
    return over;
  }

  /** {@code written} with the rules on trial in shadow. */
  Rules inForce(Rules written) {
    if (trials.isEmpty()) {
      return written;
    }
    List<Rule> rules = new ArrayList<>(written.rules().size());
    for (Rule rule : written.rules()) {
      rules.add(trials.containsKey(rule.id()) ? rule.inShadow() : rule);
    }
    return written.with(rules);
  }

  /** When each rule on trial enforces, in milliseconds since the epoch, in no order. */
  Map<String, Long> enforcesAtMillis() {
    Map<String, Long> millis = new LinkedHashMap<>();
    for (Map.Entry<String, Long> trial : trials.entrySet()) {
      millis.put(trial.getKey(), trial.getValue() / 1000);
    }
    return millis;
  }
}
