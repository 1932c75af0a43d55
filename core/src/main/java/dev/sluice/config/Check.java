package dev.sluice.config;

import dev.sluice.core.Rule;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Paths;

/**
 * {@code java -cp sluice-filter.jar dev.sluice.config.Check ratelimit.yaml}: prints OK or every
 * error with its file, line and field, and exits non-zero when the file would be rejected; warnings
 * are printed too but pass. Use it in CI before shipping a change to the rules.
 */
public final class Check {
  private static final PrintStream NOWHERE =
      new PrintStream(
          new OutputStream() {
            @Override
            public void write(int b) {}
          });

  private Check() {}

  public static void main(String[] args) {
    System.exit(
        run("java -cp sluice-filter.jar dev.sluice.config.Check", args, System.out, System.err));
  }

  /**
   * Returns 0 when valid, 1 when invalid, 2 when the file cannot be read, no file is given or
   * SnakeYAML is missing; {@code command} is how messages name the command that was run.
   */
  public static int run(String command, String[] args, PrintStream out, PrintStream err) {
    if (args.length != 1) {
      err.println("usage: " + command + " <ratelimit.yaml>");
      return 2;
    }
    return file(command, args[0], out, err).exitCode();
  }

  /** Reads and checks {@code file} as {@link #run} does, printing what it prints. */
  public static Checked file(String command, String file, PrintStream out, PrintStream err) {
    return file(command, file, false, out, err, err);
  }

  /**
   * Reads and checks {@code file} as {@link #file} does, for a command that publishes it: what it
   * prints does not describe the file's store, which a JVM following it never takes.
   */
  public static Checked fileToPublish(
      String command, String file, PrintStream out, PrintStream err) {
    return file(command, file, true, out, err, err);
  }

  /**
   * Reads and checks {@code file} for the store it names, as the publishing commands' {@code
   * --config} does: only its errors are printed, on {@code err}; its warnings are about what such a
   * command never uses (an admin token's variable unset where it runs, say).
   */
  public static Checked forItsStore(String command, String file, PrintStream err) {
    return file(command, file, false, NOWHERE, NOWHERE, err);
  }

  private static Checked file(
      String command,
      String file,
      boolean publishing,
      PrintStream out,
      PrintStream warnings,
      PrintStream err) {
    byte[] content;
    try (InputStream in = Files.newInputStream(Paths.get(file))) {
      content = ConfigSource.readBounded(in, file);
    } catch (IOException | InvalidPathException e) {
      err.println(file + ": cannot read: " + e);
      return new Checked(null, null, 2);
    } catch (InvalidConfigException e) {
      return invalid(file, e, err);
    }
    return content(command, file, content, publishing, out, warnings, err);
  }

  /**
   * Checks {@code content} as {@link #run} checks a file, printing what it prints; {@code name}
   * names it in the messages; {@code publishing} as for {@link #fileToPublish}.
   */
  public static Checked content(
      String command,
      String name,
      byte[] content,
      boolean publishing,
      PrintStream out,
      PrintStream err) {
    return content(command, name, content, publishing, out, err, err);
  }

  private static Checked content(
      String command,
      String name,
      byte[] content,
      boolean publishing,
      PrintStream out,
      PrintStream warnings,
      PrintStream err) {
    try {
      Config config = ConfigParser.parse(name, new String(content, StandardCharsets.UTF_8));
      out.println(
          "OK "
              + name
              + ": "
              + config.rules().rules().size()
              + (config.rules().rules().size() == 1 ? " rule" : " rules")
              + (publishing
                  ? " (a JVM that follows them keeps its own local store and fleet sections)"
                  : ", store " + config.store())
              + (config.enabled() ? "" : "; disabled (enabled: false): nothing is limited")
              + (config.rulesFromRedis() && !publishing
                  ? "; rules_from: redis: these rules are only the fallback, in force until a"
                      + " version is published in Redis, and edits to them are not applied while"
                      + " one is"
                  : ""));
      if (!publishing) {
        for (Rule rule : config.rules().rules()) {
          if (!rule.consistency().isExact()) {
            out.println(
                config.store().redis() == null
                    ? "rule " + rule.id() + ": local_first, decided exactly by the memory store"
                    : LocalFirstBound.of(rule, config.store().fleetAtLeast()));
          }
        }
      }
      for (ConfigError warning : config.warnings()) {
        warnings.println("warning: " + warning);
      }
      return new Checked(content, config, 0);
    } catch (InvalidConfigException e) {
      return invalid(name, e, err);
    } catch (NoClassDefFoundError e) {
      // The plain jar leaves SnakeYAML to the application; run alone, it has none to lean on.
      if (e.getMessage() == null || !e.getMessage().contains("snakeyaml")) {
        throw e;
      }
      err.println(
          command
              + " needs SnakeYAML (org.yaml:snakeyaml) on the class path: add its jar, or check"
              + " with sluice-agent.jar or the javax jar, which bundle it");
      return new Checked(null, null, 2);
    }
  }

  private static Checked invalid(String name, InvalidConfigException e, PrintStream err) {
    err.println(e.getMessage());
    err.println(
        e.errors().size() + (e.errors().size() == 1 ? " error" : " errors") + " in " + name);
    return new Checked(null, null, 1);
  }

  /** What a check found: the content and its config when valid, and the exit code of the check. */
  public static final class Checked {
    private final byte[] content;
    private final Config config;
    private final int exitCode;

    private Checked(byte[] content, Config config, int exitCode) {
      this.content = content;
      this.config = config;
      this.exitCode = exitCode;
    }

    /** The content checked, as read; null unless valid. */
    public byte[] content() {
      return content;
    }

    /** The valid config; null when the check failed. */
    public Config config() {
      return config;
    }

    /** 0 when valid, 1 when invalid, 2 when unreadable or SnakeYAML is missing. */
    public int exitCode() {
      return exitCode;
    }
  }
}
