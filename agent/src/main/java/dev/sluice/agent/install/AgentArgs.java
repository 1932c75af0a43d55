package dev.sluice.agent.install;

import dev.sluice.config.OnInvalidConfig;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The agent argument: {@code key=value} pairs separated by commas, as in {@code
 * -javaagent:sluice-agent.jar=config=/etc/ratelimit.yaml,on_invalid_config=refuse_start}. A
 * malformed or unknown pair is reported and skipped, never fatal: the application must start
 * whatever the flag says (unless it says, correctly, to refuse a start without valid rules).
 */
final class AgentArgs {
  static final String CONFIG = "config";
  private static final String EXPECTED =
      " (expected config=<path to ratelimit.yaml> or "
          + OnInvalidConfig.NAME
          + "=serve|refuse_start)";

  private final String config;
  private final String onInvalidConfig;
  private final List<String> problems;

  private AgentArgs(String config, String onInvalidConfig, List<String> problems) {
    this.config = config;
    this.onInvalidConfig = onInvalidConfig;
    this.problems = Collections.unmodifiableList(problems);
  }

  static AgentArgs parse(String text) {
    String config = null;
    String onInvalidConfig = null;
    List<String> problems = new ArrayList<String>();
    if (text == null || text.trim().isEmpty()) {
      return new AgentArgs(null, null, problems);
    }
    for (String pair : text.split(",")) {
      int equals = pair.indexOf('=');
      String key = equals < 0 ? pair.trim() : pair.substring(0, equals).trim();
      String value = equals < 0 ? "" : pair.substring(equals + 1).trim();
      if (CONFIG.equals(key) && !value.isEmpty()) {
        config = value;
      } else if (CONFIG.equals(key)) {
        problems.add(
            "the agent argument \"" + pair.trim() + "\" names no file; ignored" + EXPECTED);
      } else if (OnInvalidConfig.NAME.equals(key)) {
        onInvalidConfig = value; // checked where every way of giving it is
      } else {
        problems.add("unknown agent argument \"" + pair.trim() + "\" ignored" + EXPECTED);
      }
    }
    return new AgentArgs(config, onInvalidConfig, problems);
  }

  /** The config location given, or null to look in the usual places. */
  String config() {
    return config;
  }

  /** The {@code on_invalid_config} given, or null to look in the usual places. */
  String onInvalidConfig() {
    return onInvalidConfig;
  }

  /** What was wrong with the argument, one line each. */
  List<String> problems() {
    return problems;
  }
}
