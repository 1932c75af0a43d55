package dev.sluice.agent.install;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The agent argument: {@code key=value} pairs separated by commas, as in {@code
 * -javaagent:sluice-agent.jar=config=/etc/ratelimit.yaml}. A malformed or unknown pair is reported
 * and skipped, never fatal: the application must start whatever the flag says.
 */
final class AgentArgs {
  static final String CONFIG = "config";

  private final String config;
  private final List<String> problems;

  private AgentArgs(String config, List<String> problems) {
    this.config = config;
    this.problems = Collections.unmodifiableList(problems);
  }

  static AgentArgs parse(String text) {
    String config = null;
    List<String> problems = new ArrayList<String>();
    if (text == null || text.trim().isEmpty()) {
      return new AgentArgs(null, problems);
    }
    for (String pair : text.split(",")) {
      int equals = pair.indexOf('=');
      String key = equals < 0 ? pair.trim() : pair.substring(0, equals).trim();
      String value = equals < 0 ? "" : pair.substring(equals + 1).trim();
      if (CONFIG.equals(key) && !value.isEmpty()) {
        config = value;
      } else if (CONFIG.equals(key)) {
        problems.add(
            "the agent argument \""
                + pair.trim()
                + "\" names no file; ignored (expected config=<path to ratelimit.yaml>)");
      } else {
        problems.add(
            "unknown agent argument \""
                + pair.trim()
                + "\" ignored (expected config=<path to ratelimit.yaml>)");
      }
    }
    return new AgentArgs(config, problems);
  }

  /** The config location given, or null to look in the usual places. */
  String config() {
    return config;
  }

  /** What was wrong with the argument, one line each. */
  List<String> problems() {
    return problems;
  }
}
