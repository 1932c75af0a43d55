package dev.sluice.publish;

import dev.sluice.config.Check;
import dev.sluice.config.ConfigSource;
import dev.sluice.config.RulesVersion;
import dev.sluice.store.redis.PublishedRules;
import dev.sluice.store.redis.PublishedVersion;
import dev.sluice.support.CommandLine;
import dev.sluice.support.HostName;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * {@code push}, {@code history} and {@code rollback}: ratelimit.yaml published once in Redis for a
 * whole fleet, whose JVMs follow it when their own file says {@code rules_from: redis}
 * (docs/publishing.md). A push is checked exactly as {@code check} checks a file, and refused when
 * invalid. Exit codes: 0 done (nothing to publish included), 1 an invalid file or a version Redis
 * does not keep, 2 usage, an unreadable file or a {@code --config} that names no Redis, 3 Redis
 * could not be reached or failed.
 */
public final class Publish {
  static final int INVALID = 1;
  static final int USAGE = 2;
  static final int REDIS_FAILED = 3;

  /** One of the commands: its name, how many arguments it takes, its usage, its own options. */
  private enum Command {
    PUSH("push", 1, "<ratelimit.yaml> <redis> [--message <text>]", "message"),
    HISTORY("history", 0, "<redis>"),
    ROLLBACK("rollback", 1, "<version> <redis> [--message <text>]", "message");

    final String name;
    final int arguments;
    final String usage;
    final String[] options;

    Command(String name, int arguments, String usage, String... own) {
      this.name = name;
      this.arguments = arguments;
      this.usage = usage;
      this.options = Arrays.copyOf(Target.OPTIONS, Target.OPTIONS.length + own.length);
      System.arraycopy(own, 0, options, Target.OPTIONS.length, own.length);
    }
  }

  private Publish() {}

  /** Whether {@code command} is one of these. */
  public static boolean handles(String command) {
    return of(command) != null;
  }

  /** The usage lines of the commands, each starting with {@code jar}. */
  public static List<String> usage(String jar) {
    return Arrays.asList(
        jar + " " + Command.PUSH.name + " " + Command.PUSH.usage,
        jar + " " + Command.HISTORY.name + " " + Command.HISTORY.usage,
        jar + " " + Command.ROLLBACK.name + " " + Command.ROLLBACK.usage,
        "  <redis>: --config <a JVM's ratelimit.yaml> | --redis <url> | --cluster <url>,<url>...,"
            + " with --key-prefix <prefix> unless rl");
  }

  /** Runs {@code command} (push, history or rollback) with {@code args}; returns its exit code. */
  public static int run(
      String jar, String command, String[] args, PrintStream out, PrintStream err) {
    Command c = of(command);
    if (c == null) {
      throw new IllegalArgumentException(command + " is not push, history or rollback");
    }
    String name = jar + " " + command;
    CommandLine options;
    Target target;
    try {
      options = CommandLine.parse(args, Collections.<String>emptyList(), c.options);
      if (options.positional().size() != c.arguments) {
        throw new IllegalArgumentException(
            c.arguments == 0 ? "takes no arguments but options" : "takes one argument");
      }
      target = Target.of(options, name, err);
    } catch (IllegalArgumentException e) {
      err.println(name + ": " + e.getMessage());
      err.println("usage: " + name + " " + c.usage);
      err.println(usage(jar).get(3));
      return USAGE;
    }
    if (target == null) {
      return USAGE;
    }
    String message = options.get("message") == null ? "" : options.get("message");
    Check.Checked pushed = null;
    if (c == Command.PUSH) {
      // Checked before Redis is asked anything: an invalid file is refused even while it is down.
      String file = options.positional().get(0);
      pushed = Check.fileToPublish(name, file, out, err);
      if (pushed.config() == null) {
        return pushed.exitCode();
      }
      target.warnAboutLocalSections(file, pushed.config(), err);
    }
    try (PublishedRules rules = target.open()) {
      switch (c) {
        case PUSH:
          return publish(rules, pushed.content(), message, 0, options.positional().get(0), out);
        case HISTORY:
          return history(rules, out);
        default:
          return rollback(name, rules, options.positional().get(0), message, out, err);
      }
    } catch (RuntimeException e) {
      err.println(name + ": cannot use " + target + ": " + e);
      return REDIS_FAILED;
    }
  }

  private static Command of(String name) {
    for (Command c : Command.values()) {
      if (c.name.equals(name)) {
        return c;
      }
    }
    return null;
  }

  private static int publish(
      PublishedRules rules,
      byte[] content,
      String message,
      long rollbackOf,
      String what,
      PrintStream out) {
    String rulesVersion = RulesVersion.of(content);
    long number = rules.publish(content, rulesVersion, who(), HostName.get(), message, rollbackOf);
    if (number == 0) {
      out.println(
          "Nothing published: the current version, "
              + rules.current()
              + " in "
              + rules
              + ", has this content already (rules version "
              + rulesVersion
              + ")");
    } else {
      out.println(
          "Published "
              + what
              + " as version "
              + number
              + " (rules version "
              + rulesVersion
              + ") in "
              + rules
              + "; JVMs with rules_from: redis apply it within 2 seconds. Redis keeps the last "
              + PublishedRules.KEPT
              + " versions");
    }
    return 0;
  }

  private static int history(PublishedRules rules, PrintStream out) {
    long current = rules.current();
    List<PublishedVersion> versions = rules.history(ConfigSource.MAX_BYTES);
    if (versions.isEmpty()) {
      out.println("No version is published in " + rules);
      return 0;
    }
    out.print(HistoryTable.of(versions, current));
    out.println(
        "* marks the current version. "
            + rules
            + " keeps the last "
            + PublishedRules.KEPT
            + " versions");
    return 0;
  }

  /** Publishes the content of an earlier version again, checked as a push is. */
  private static int rollback(
      String name,
      PublishedRules rules,
      String version,
      String message,
      PrintStream out,
      PrintStream err) {
    long number = version.matches("[1-9][0-9]{0,17}") ? Long.parseLong(version) : 0;
    PublishedVersion earlier = number == 0 ? null : rules.read(number, ConfigSource.MAX_BYTES);
    if (earlier != null && earlier.refused() != null) {
      err.println(name + ": version " + number + " was not read: " + earlier.refused());
      return INVALID;
    }
    if (earlier == null) {
      err.println(
          name
              + ": "
              + rules
              + " keeps no version "
              + version
              + " (it keeps the last "
              + PublishedRules.KEPT
              + "; history lists them)");
      return INVALID;
    }
    Check.Checked checked =
        Check.content(name, "version " + number, earlier.content(), true, out, err);
    if (checked.config() == null) {
      err.println(name + ": version " + number + " is not valid here; nothing published");
      return checked.exitCode();
    }
    return publish(rules, earlier.content(), message, number, "version " + number, out);
  }

  private static String who() {
    return System.getProperty("user.name", "unknown");
  }
}
