package dev.sluice.simulate;

import dev.sluice.config.Check;
import dev.sluice.config.Config;
import dev.sluice.config.ConfigParser;
import dev.sluice.config.InvalidConfigException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Paths;
import java.util.Set;
import java.util.zip.GZIPInputStream;

/**
 * {@code simulate --rules ratelimit.yaml --log access.log}: what would these rules have done to the
 * traffic of this log? Replays the log through the engine the agent and the Filter run (the same
 * parsing of the file, the same {@code Limiter}), in memory, on the log's own clock, and reports
 * per rule the requests it matched, those it would have denied, the identities it would have
 * limited most and the busiest second of any identity. See docs/simulate.md.
 */
public final class Simulate {
  private Simulate() {}

  public static void main(String[] args) {
    System.exit(
        run(
            "java -cp sluice-filter.jar dev.sluice.simulate.Simulate",
            args,
            System.out,
            System.err));
  }

  /**
   * Returns 0 when replayed, 1 when the rules are invalid (their errors printed as {@code check}
   * prints them) or no line of the log fits the format, 2 for a usage error or a file that cannot
   * be read; {@code command} is how messages name the command that was run.
   */
  public static int run(String command, String[] args, PrintStream out, PrintStream err) {
    Options options;
    AccessLogFormat format;
    try {
      options = Options.parse(args);
      format = options.format == null ? null : AccessLogFormat.of(options.format);
    } catch (IllegalArgumentException e) {
      err.println(command + ": " + e.getMessage());
      err.println("usage: " + command + " " + Options.USAGE);
      return 2;
    }
    // The rules are read by check itself, so they are judged and their errors said exactly alike.
    int checked = Check.run(command, new String[] {options.rules}, new PrintStream(DISCARD), err);
    if (checked != 0) {
      return checked;
    }
    Config config;
    try {
      byte[] content = Files.readAllBytes(Paths.get(options.rules));
      config = ConfigParser.parse(options.rules, new String(content, StandardCharsets.UTF_8));
    } catch (IOException e) {
      err.println(options.rules + ": cannot read: " + e);
      return 2;
    } catch (InvalidConfigException e) {
      err.println(e.getMessage()); // changed since it was checked
      return 1;
    }
    Replay replay;
    Set<String> notLogged;
    try (Reader opened = open(options.log)) {
      Reader log = opened;
      if (format == null) {
        // Buffered so that the first lines the guess reads are read again by the replay.
        BufferedReader start = new BufferedReader(opened, FormatGuess.SAMPLE_CHARS);
        format = FormatGuess.of(start);
        log = start;
      }
      replay = new Replay(config.rules(), config.store().maxKeys(), format);
      notLogged = replay.run(log);
    } catch (IOException | InvalidPathException e) {
      err.println(options.log + ": cannot read: " + e);
      return 2;
    }
    ReplayReport report =
        new ReplayReport(
            options.rules,
            options.log,
            format.name(),
            config,
            options.top,
            replay,
            notLogged);
    if (options.json) {
      JsonReport.print(report, out);
    } else {
      TextReport.print(report, out);
    }
    if (replay.lines > 0 && replay.skipped == replay.lines) {
      err.println(
          options.log
              + ": no line fits the format "
              + format
              + " ("
              + replay.skips.get(0)
              + ")"
              + (options.format == null
                  ? "; neither combined nor common fits: give the log's pattern with --format,"
                      + " e.g. --format '%h %t \"%r\" %s %b %D'"
                  : ""));
      return 1;
    }
    return 0;
  }

  /** The log as text: {@code -} is standard input, and a name ending in .gz is gunzipped. */
  private static Reader open(String log) throws IOException {
    InputStream in = "-".equals(log) ? System.in : Files.newInputStream(Paths.get(log));
    if (log.endsWith(".gz")) {
      in = new GZIPInputStream(in, 1 << 16);
    }
    return new InputStreamReader(in, StandardCharsets.UTF_8);
  }

  /** Where check's OK goes: the report says what it needs of the rules itself. */
  private static final OutputStream DISCARD =
      new OutputStream() {
        @Override
        public void write(int b) {}
      };
}
