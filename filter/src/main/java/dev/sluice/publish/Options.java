package dev.sluice.publish;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A command's arguments: those in order, and options given as {@code --name value} or {@code
 * --name=value}, each at most once.
 */
final class Options {
  private final List<String> positional = new ArrayList<>();
  private final Map<String, String> named = new HashMap<>();

  private Options() {}

  /**
   * @param known the names of the options the command takes, without their dashes
   * @throws IllegalArgumentException for an option not known, without its value, or given twice
   */
  static Options parse(String[] args, String... known) {
    Options options = new Options();
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      if (!arg.startsWith("--")) {
        options.positional.add(arg);
        continue;
      }
      int equals = arg.indexOf('=');
      String name = arg.substring(2, equals < 0 ? arg.length() : equals);
      if (!Arrays.asList(known).contains(name)) {
        throw new IllegalArgumentException("unknown option --" + name);
      }
      if (equals < 0 && i + 1 == args.length) {
        throw new IllegalArgumentException("--" + name + " needs a value");
      }
      String value = equals < 0 ? args[++i] : arg.substring(equals + 1);
      if (options.named.put(name, value) != null) {
        throw new IllegalArgumentException("--" + name + " is given twice");
      }
    }
    return options;
  }

  /** The value of {@code --name}; null when not given. */
  String get(String name) {
    return named.get(name);
  }

  List<String> positional() {
    return positional;
  }
}
