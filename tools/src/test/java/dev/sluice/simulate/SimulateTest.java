package dev.sluice.simulate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.Check;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command on hand-made logs whose right answers are known. */
class SimulateTest {
  static final String LOGIN_RULES =
      "rules:\n"
          + "  - { id: login, match: { path: /login, methods: [POST] }, key: ip, limit: 5,"
          + " window: 1m }\n";

  /**
   * 10.0.0.1 logs in 7 times within a minute (one line of them late, one line between them junk);
   * 10.0.0.2 twice; a GET of /login and /health match nothing.
   */
  static final String LOGINS =
      """
      10.0.0.1 - - [10/Oct/2000:13:55:10 -0700] "POST /login HTTP/1.1" 200 12
      10.0.0.1 - - [10/Oct/2000:13:55:11 -0700] "POST /login HTTP/1.1" 200 12
      10.0.0.2 - - [10/Oct/2000:13:55:12 -0700] "POST /login HTTP/1.1" 200 12
      10.0.0.1 - - [10/Oct/2000:13:55:13 -0700] "POST /login?next=/ HTTP/1.1" 200 12
      10.0.0.1 - - [10/Oct/2000:13:55:30 -0700] "POST /login HTTP/1.1" 200 12
      10.0.0.1 - - [10/Oct/2000:13:55:20 -0700] "POST //login HTTP/1.1" 200 12
      garbage
      10.0.0.2 - - [10/Oct/2000:13:55:31 -0700] "POST /login HTTP/1.1" 200 12
      10.0.0.1 - - [10/Oct/2000:13:55:32 -0700] "POST /login HTTP/1.1" 200 12
      10.0.0.1 - - [10/Oct/2000:13:55:33 -0700] "POST /login/ HTTP/1.1" 200 12
      10.0.0.2 - - [10/Oct/2000:13:55:34 -0700] "GET /login HTTP/1.1" 200 12
      10.0.0.1 - - [10/Oct/2000:13:55:35 -0700] "GET /health HTTP/1.1" 200 2
      """;

  @TempDir Path dir;

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  int run(String... args) {
    return Simulate.run("simulate", args, print(out), print(err));
  }

  /** Replays {@code log} through {@code rules}, with {@code more} options. */
  int replay(Path rules, Path log, String... more) {
    List<String> args =
        new ArrayList<>(List.of("--rules", rules.toString(), "--log", log.toString()));
    args.addAll(List.of(more));
    return run(args.toArray(new String[0]));
  }

  private static PrintStream print(OutputStream to) {
    return new PrintStream(to, true, StandardCharsets.UTF_8);
  }

  String out() {
    return out.toString(StandardCharsets.UTF_8).replace(System.lineSeparator(), "\n");
  }

  String err() {
    return err.toString(StandardCharsets.UTF_8).replace(System.lineSeparator(), "\n");
  }

  Path write(String name, String content) throws IOException {
    return Files.writeString(dir.resolve(name), content);
  }

  @Test
  void sevenLoginsInAMinuteUnderALimitOfFiveAreTwoWouldBe429s() throws IOException {
    Path rules = write("ratelimit.yaml", LOGIN_RULES);
    Path log = write("access.log", LOGINS);
    assertThat(replay(rules, log, "--format", "common")).isZero();
    assertThat(out())
        .isEqualTo(
            "Replayed "
                + log
                + " (format common) through "
                + rules
                + ": 1 rule\n"
                + "store: memory, one JVM\n"
                + "\n"
                + "rule login: 5/1m sliding_window, POST /login, by ip\n"
                + "  matched         9 requests from 2 identities\n"
                + "  would-be 429s   2 (22.2%)\n"
                + "  peak            2 requests in one second, ip=10.0.0.1\n"
                + "  top limited     ip=10.0.0.1  2 of 7 (peak 2/s)\n"
                + "\n"
                + "all rules\n"
                + "  lines           12 read, 11 replayed, 1 skipped: line 7: no %h at column 1\n"
                + "                  1 out of order, at most 10s behind: replayed at the latest"
                + " time seen\n"
                + "  log time        2000-10-10T20:55:10Z to 2000-10-10T20:55:35Z (25s)\n"
                + out().lines().filter(l -> l.startsWith("  replay ")).findFirst().get()
                + "\n"
                + "  denied          2 requests (18.2% of those replayed)\n");
    assertThat(out()).containsPattern("\n  replay          [0-9.]+ s, [0-9,]+ lines/s\n");
    assertThat(err()).isEmpty();
  }

  @Test
  void jsonSaysTheSameForMachines() throws IOException {
    Path rules = write("ratelimit.yaml", LOGIN_RULES);
    Path log = write("access.log", LOGINS);
    assertThat(run("--rules=" + rules, "--log=" + log, "--format=tomcat", "--json")).isZero();
    assertThat(out())
        .startsWith(
            "{\"rulesFile\":\""
                + rules
                + "\",\"logFile\":\""
                + log
                + "\",\"format\":\"tomcat\",\"store\":{\"file\":\"memory\",\"replayed\":\"memory\","
                + "\"fleetSize\":1},\"enabled\":true,\"rulesFromRedis\":false,\"notLogged\":[],\"rules\":[{\"id\":\"login\",\"rule\":\"5/1m"
                + " sliding_window, POST /login, by ip\",\"shadow\":false,"
                + "\"status\":429,\"matched\":9,\"identities\":2,\"wouldDeny\":2,"
                + "\"wouldDenyPercent\":22.2,\"peak\":{\"identity\":\"ip=10.0.0.1\",\"perSecond\":2},"
                + "\"top\":[{\"identity\":\"ip=10.0.0.1\",\"wouldDeny\":2,\"requests\":7,"
                + "\"peakPerSecond\":2}],\"untracked\":0}],\"total\":{\"lines\":12,\"replayed\":11,\"skipped\":1,\"skips\":[{\"line\":7,\"reason\":\"no"
                + " %h at column 1\"}],\"outOfOrder\":1,\"mostBehindSeconds\":10,"
                + "\"firstTime\":\"2000-10-10T20:55:10Z\",\"lastTime\":\"2000-10-10T20:55:35Z\","
                + "\"spanSeconds\":25,\"replaySeconds\":")
        .containsPattern(
            "\"linesPerSecond\":[0-9]+,\"denied\":2,\"deniedPercent\":18.2,\"shadowDenied\":0,"
                + "\"identitiesFollowed\":1597830}}\n$");
  }

  @Test
  void aGzippedLogIsReadAsItsLines() throws IOException {
    Path rules = write("ratelimit.yaml", LOGIN_RULES);
    Path log = dir.resolve("access.log.gz");
    try (OutputStream gz = new GZIPOutputStream(Files.newOutputStream(log))) {
      gz.write(LOGINS.getBytes(StandardCharsets.UTF_8));
    }
    assertThat(replay(rules, log, "--format", "common")).isZero();
    assertThat(out()).contains("  would-be 429s   2 (22.2%)\n");
  }

  @Test
  void invalidRulesAreReportedExactlyAsCheckDoesAndExitOne() throws IOException {
    Path rules =
        write(
            "ratelimit.yaml",
            "rules:\n  - { id: a, match: { path: /a }, key: ip, limit: 0, window: 1m }\n");
    Path log = write("access.log", LOGINS);
    ByteArrayOutputStream checked = new ByteArrayOutputStream();
    int checkCode =
        Check.run("simulate", new String[] {rules.toString()}, print(out), print(checked));
    assertThat(replay(rules, log)).isEqualTo(1).isEqualTo(checkCode);
    assertThat(err).hasToString(checked.toString(StandardCharsets.UTF_8));
    assertThat(err()).startsWith(rules + ":2:").endsWith("1 error in " + rules + "\n");
  }

  @Test
  void fileErrorsAndUsageErrorsExitTwo() throws IOException {
    Path rules = write("ratelimit.yaml", LOGIN_RULES);
    Path missing = dir.resolve("absent.log");
    assertThat(replay(rules, missing)).isEqualTo(2);
    assertThat(err()).startsWith(missing + ": cannot read: ");

    String usage =
        "usage: simulate --rules <ratelimit.yaml> --log <access.log|access.log.gz|->"
            + " [--format combined|common|tomcat|'<AccessLogValve pattern>'] [--json] [--top N]\n";
    String[][] wrong = {
      {"--rules", rules.toString()},
      {"--rules", rules.toString(), "--log", "a.log", "--format", "nginx"},
      {"--rules", rules.toString(), "--log", "a.log", "--format", "%h \"%r\""},
      {"--rules", rules.toString(), "--log", "a.log", "--top", "many"},
      {"--rules", rules.toString(), "--log", "a.log", "--verbose"},
      {"--rules", rules.toString(), "--log"},
    };
    String[] said = {
      "simulate: --rules and --log are required\n",
      "simulate: unknown format \"nginx\": use combined, common, tomcat or an AccessLogValve"
          + " pattern such as '%h %l %u %t \"%r\" %s %b'\n",
      "simulate: the pattern has no %t: a replay needs each line's time\n",
      "simulate: --top must be a whole number from 0 to 1000, got \"many\"\n",
      "simulate: unknown option --verbose\n",
      "simulate: --log needs a value\n",
    };
    for (int i = 0; i < wrong.length; i++) {
      err.reset();
      assertThat(run(wrong[i])).isEqualTo(2);
      assertThat(err()).isEqualTo(said[i] + usage);
    }
    assertThat(out()).isEmpty();
  }

  @Test
  void tomcatsDefaultLogIsReplayedWithoutAFormat() throws IOException {
    Path rules = write("ratelimit.yaml", LOGIN_RULES);
    Path log = write("localhost_access_log.2000-10-10.txt", LOGINS);
    assertThat(replay(rules, log)).isZero();
    assertThat(out())
        .contains(" (format common (detected)) through ")
        .contains("  lines           12 read, 11 replayed, 1 skipped");
    assertThat(err()).isEmpty();
  }

  @Test
  void oneIdentityIsOneIdentity() throws IOException {
    Path rules = write("ratelimit.yaml", LOGIN_RULES);
    Path log = write("access.log", LOGINS.lines().limit(1).findFirst().orElseThrow() + "\n");
    assertThat(replay(rules, log)).isZero();
    assertThat(out()).contains("  matched         1 request from 1 identity\n");
  }

  @Test
  void aCombinedLogIsDetectedAsCombined() throws IOException {
    Path rules = write("ratelimit.yaml", LOGIN_RULES);
    String combined =
        LOGINS.replace(" 200 12\n", " 200 12 \"-\" \"curl/8.0\"\n")
            .replace(" 200 2\n", " 200 2 \"-\" \"curl/8.0\"\n");
    Path log = write("access.log", combined);
    assertThat(replay(rules, log)).isZero();
    assertThat(out()).contains(" (format combined (detected)) through ");
  }

  @Test
  void theGuessReadsOnlyTheStartOfALogThatOpensWithAnEndlessLine() throws IOException {
    Path rules = write("ratelimit.yaml", LOGIN_RULES);
    String line = "x".repeat(3 * FormatGuess.SAMPLE_CHARS);
    Path log = write("access.log", line + "\n" + LOGINS);
    assertThat(replay(rules, log))
        .as("no whole line in the sample: nothing to go on, so combined, which these miss")
        .isEqualTo(1);
    assertThat(err()).contains(": no line fits the format combined (detected) (line 1: ");
  }

  @Test
  void aLogOfWhichNoLineFitsTheFormatExitsOneSayingWhy() throws IOException {
    Path rules = write("ratelimit.yaml", LOGIN_RULES);
    Path log = write("access.log", "{\"json\": \"lines\"}\n{\"json\": \"lines\"}\n");
    assertThat(replay(rules, log)).isEqualTo(1);
    assertThat(err())
        .isEqualTo(
            log
                + ": no line fits the format combined (detected) (line 1: no %l at column 10);"
                + " neither combined nor common fits: give the log's pattern with --format, e.g."
                + " --format '%h %t \"%r\" %s %b %D'\n");
    assertThat(out()).contains("  lines           2 read, 0 replayed, 2 skipped");
  }

  @Test
  void aRedisStoreIsReplayedInMemoryAsOneJvmAndMissingFieldsAreNamed() throws IOException {
    Path rules =
        write(
            "ratelimit.yaml",
            "enabled: false\n"
                + "rules_from: redis\n"
                + "store: { type: redis, redis: { url: redis://127.0.0.1:1 } }\n"
                + "rules:\n"
                + "  - { id: api, match: { path: /** }, key: api_key, limit: 5, window: 1m }\n");
    Path log = write("access.log", LOGINS);
    assertThat(replay(rules, log, "--format", "common")).isZero();
    assertThat(out())
        .contains(
            "store: the file says redis; replayed in memory as one JVM (fleet size 1)\n"
                + "note: the file says enabled: false, so live nothing would be limited\n"
                + "note: the file says rules_from: redis, so live these rules are only the"
                + " fallback, in force until a version is published in Redis\n"
                + "note: the rules read X-API-Key, which the log does not carry: every request"
                + " reads as without it\n")
        .contains("  matched         0 requests from 0 identities\n");
  }
}
