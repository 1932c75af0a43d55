package dev.sluice.support;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The arguments of one of the jar's commands: those in order, flags ({@code --json}), and options
 * given as {@code --name value} or {@code --name=value}, each at most once.
 */
public final class CommandLine {
  private final List<String> positional = new ArrayList<>();
  private final Map<String, String> named = new HashMap<>();
  private final Set<String> flagged = new HashSet<>();

  private CommandLine() {}

  /**
   * @param flags the names of the flags the command takes, without their dashes
   * @param known the names of the options with a value it takes, without their dashes
   * @throws IllegalArgumentException for an option not known, without its value, or given twice
   */
  public static CommandLine parse(String[] args, List<String> flags, String... known) {
    CommandLine options = new CommandLine();
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      if (!arg.startsWith("--")) {
        if (looksLikeShortOption(arg)) {
          throw new IllegalArgumentException(
              "unknown option " + arg + ": options are spelt out" + suggestion(arg, flags, known));
        }
        options.positional.add(arg);
        continue;
      }
      if (flags.contains(arg.substring(2))) {
        if (!options.flagged.add(arg.substring(2))) {
          throw new IllegalArgumentException(arg + " is given twice");
        }
        continue;
      }
      int equals = arg.indexOf('=');
      String name = arg.substring(2, equals < 0 ? arg.length() : equals);
      if (!Arrays.asList(known).contains(name)) {
        throw new IllegalArgumentException(
            "unknown option --" + name + suggestion("--" + name, flags, known));
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

  /** {@code -m}, {@code -json}: never a file name, version or URL a command takes. */
  private static boolean looksLikeShortOption(String arg) {
    return arg.length() > 1 && arg.charAt(0) == '-' && Character.isLetter(arg.charAt(1));
  }

  /**
   * ", did you mean --message?" for {@code -m} (the one option it abbreviates) or a misspelling;
   * else nothing (the usage that follows lists the options).
   */
  private static String suggestion(String arg, List<String> flags, String[] known) {
    List<String> names = new ArrayList<>(flags);
    names.addAll(Arrays.asList(known));
    String bare = arg.replaceFirst("^-+", "");
    String meant = null;
    for (String name : names) {
      if (name.startsWith(bare)) {
        meant = meant == null ? name : "";
      }
    }
    if (meant == null || meant.isEmpty()) {
      meant = Nearest.to(bare, names.toArray(new String[0]));
    }
    return meant == null ? "" : ", did you mean --" + meant + "?";
  }

  /** The value of {@code --name}; null when not given. */
  public String get(String name) {
    return named.get(name);
  }

  /** Whether the flag {@code --name} is given. */
  public boolean has(String name) {
    return flagged.contains(name);
  }

  public List<String> positional() {
    return positional;
  }
}
