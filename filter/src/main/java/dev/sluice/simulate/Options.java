package dev.sluice.simulate;

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
  String format = "combined";
  boolean json;
  int top = DEFAULT_TOP;

  private Options() {}

  /**
   * @throws IllegalArgumentException saying what is wrong, for a usage error
   */
  static Options parse(String[] args) {
    Options options = new Options();
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      int equals = arg.indexOf('=');
      String name = equals < 0 ? arg : arg.substring(0, equals);
      if ("--json".equals(arg)) {
        options.json = true;
        continue;
      }
      if (!"--rules".equals(name)
          && !"--log".equals(name)
          && !"--format".equals(name)
          && !"--top".equals(name)) {
        throw new IllegalArgumentException("unknown option " + arg);
      }
      String value;
      if (equals >= 0) {
        value = arg.substring(equals + 1);
      } else if (i + 1 < args.length) {
        value = args[++i];
      } else {
        throw new IllegalArgumentException(name + " needs a value");
      }
      options.set(name, value);
    }
    if (options.rules == null || options.log == null) {
      throw new IllegalArgumentException("--rules and --log are required");
    }
    return options;
  }

  private void set(String name, String value) {
    switch (name) {
      case "--rules":
        rules = value;
        break;
      case "--log":
        log = value;
        break;
      case "--format":
        format = value;
        break;
      default:
        top = top(value);
        break;
    }
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
