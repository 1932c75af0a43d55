package dev.sluice.config;

import java.io.IOException;
import java.io.InputStream;
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
    String content;
    try (InputStream in = Files.newInputStream(Paths.get(args[0]))) {
      content = new String(ConfigSource.readBounded(in, args[0]), StandardCharsets.UTF_8);
    } catch (IOException | InvalidPathException e) {
      err.println(args[0] + ": cannot read: " + e);
      return 2;
    } catch (InvalidConfigException e) {
      return invalid(args[0], e, err);
    }
    try {
      Config config = ConfigParser.parse(args[0], content);
      out.println(
          "OK "
              + args[0]
              + ": "
              + config.rules().rules().size()
              + " rules, store "
              + config.store()
              + (config.enabled() ? "" : "; disabled (enabled: false): nothing is limited"));
      for (ConfigError warning : config.warnings()) {
        err.println("warning: " + warning);
      }
      return 0;
    } catch (InvalidConfigException e) {
      return invalid(args[0], e, err);
    } catch (NoClassDefFoundError e) {
      // The plain jar leaves SnakeYAML to the application; run alone, it has none to lean on.
      if (e.getMessage() == null || !e.getMessage().contains("snakeyaml")) {
        throw e;
      }
      err.println(
          command
              + " needs SnakeYAML (org.yaml:snakeyaml) on the class path: add its jar, or check"
              + " with sluice-agent.jar or the javax jar, which bundle it");
      return 2;
    }
  }

  private static int invalid(String file, InvalidConfigException e, PrintStream err) {
    err.println(e.getMessage());
    err.println(
        e.errors().size() + (e.errors().size() == 1 ? " error" : " errors") + " in " + file);
    return 1;
  }
}
