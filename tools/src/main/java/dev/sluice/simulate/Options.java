package dev.sluice.simulate;

import dev.sluice.support.CommandLine;
import java.util.Collections;

/**
 * The command line of {@code simulate}: {@code --rules}, {@code --log}, {@code --format}, {@code
 * --json}, {@code --top}, each value after a space or an {@code =}.
 */
final class Options {
  static final String USAGE =
      "--rules <ratelimit.yaml> --log <access.log|access.log.gz|->"
          + " [--format combined|common|tomcat|'<AccessLogValve pattern>'] [--json] [--top N]";

  static final int DEFAULT_TOP = 10;
  private static final int MAX_TOP = 1000;

  String rules;
  String log;
  /** Null: guessed from the log's first lines. */
  String format;
  boolean json;
  int top = DEFAULT_TOP;

  private Options() {}

  /**
   * @throws IllegalArgumentException saying what is wrong, for a usage error
   */
  static Options parse(String[] args) {
    CommandLine line =
        CommandLine.parse(args, Collections.singletonList("json"), "rules", "log", "format", "top");
    if (!line.positional().isEmpty()) {
      throw new IllegalArgumentException("unexpected argument " + line.positional().get(0));
    }
    Options options = new Options();
    options.rules = line.get("rules");
    options.log = line.get("log");
    options.json = line.has("json");
    if (line.get("format") != null) {
      options.format = line.get("format");
    }
    if (line.get("top") != null) {
      options.top = top(line.get("top"));
    }
    if (options.rules == null || options.log == null) {
      throw new IllegalArgumentException("--rules and --log are required");
    }
    return options;
  }

  private static int top(String value) {
    int top = -1;
    try {
      top = Integer.parseInt(value);
    } catch (NumberFormatException e) {
      // said below
    }
    if (top < 0 || top > MAX_TOP) {
      throw new IllegalArgumentException(
          "--top must be a whole number from 0 to " + MAX_TOP + ", got \"" + value + "\"");
    }
    return top;
  }
}
