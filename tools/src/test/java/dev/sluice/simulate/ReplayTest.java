package dev.sluice.simulate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.config.ConfigParser;
import dev.sluice.config.InvalidConfigException;
import dev.sluice.core.Decision;
import dev.sluice.core.Limiter;
import dev.sluice.core.Rules;
import dev.sluice.core.TestRequest;
import dev.sluice.store.ManualClock;
import dev.sluice.store.MemoryStore;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The replay decides each line as the live limiter would have. */
class ReplayTest {
  private static final String T = "[10/Oct/2000:13:55:%02d -0700]";
  private static final long START = 971_211_300L; // 10/Oct/2000:13:55:00 -0700
  private static final DateTimeFormatter CLF =
      DateTimeFormatter.ofPattern("dd/MMM/yyyy:HH:mm:ss Z", Locale.US);

  private static Rules rules(String yaml) throws InvalidConfigException {
    return ConfigParser.parse("ratelimit.yaml", yaml).rules();
  }

  private static Replay replay(String yaml, String format, String log)
      throws IOException, InvalidConfigException {
    Replay replay =
        new Replay(rules(yaml), MemoryStore.DEFAULT_MAX_KEYS, AccessLogFormat.of(format));
    replay.run(new BufferedReader(new StringReader(log)));
    return replay;
  }

  private static String at(int second) {
    return String.format(T, second);
  }

  /** A line {@code <peer> [<time>] "GET <path> HTTP/1.1"<rest>}, the second given of 13:55. */
  private static String get(String peer, int second, String path, String rest) {
    return peer + " " + at(second) + " \"GET " + path + " HTTP/1.1\"" + rest + "\n";
  }

  /** A second's requests arrive at once and queue: 5/s with max_wait 1s delays 5 of 8. */
  @Test
  void aDelayedRuleReportsItsWouldBeDelays() throws Exception {
    String yaml =
        "rules:\n  - { id: pay, match: { path: /pay }, key: ip, limit: 5, window: 1s,"
            + " algorithm: token_bucket, delay: { max_wait: 1s } }\n";
    StringBuilder log = new StringBuilder();
    for (int i = 0; i < 8; i++) {
      log.append(get("10.0.0.1", 1, "/pay", " 200 5"));
    }
    Replay replay = replay(yaml, "%h %t \"%r\" %s %b", log.toString());
    RuleTally pay = replay.tallies()[0];
    assertThat(pay.matched).isEqualTo(8);
    assertThat(pay.delayed).as("slots at 200 ms to 1 s").isEqualTo(5);
    assertThat(pay.denied).isEqualTo(2);
    assertThat(pay.meanDelayMillis()).isEqualTo(600);
  }

  @Test
  void anApiKeyHeaderInTheLogIsTheIdentityAndALineWithoutOneIsNotCounted() throws Exception {
    String yaml =
        "rules:\n  - { id: api, match: { path: /api/** }, key: api_key, limit: 3, window: 1m }\n";
    StringBuilder log = new StringBuilder();
    for (int i = 0; i < 5; i++) {
      log.append(get("10.0.0.1", i, "/api/a", " 200 \"key-1\""));
    }
    log.append(get("10.0.0.1", 6, "/api/a", " 200 \"key-2\""));
    log.append(get("10.0.0.1", 7, "/api/a", " 401 \"-\""));
    Replay replay = replay(yaml, "%a %t \"%r\" %s \"%{X-API-Key}i\"", log.toString());
    RuleTally api = replay.tallies()[0];
    assertThat(api.matched).isEqualTo(6);
    assertThat(api.denied).isEqualTo(2);
    assertThat(replay.top(api, 10))
        .extracting(s -> s.identity + " " + s.denied)
        .containsExactly("key=key-1 2");
    assertThat(replay.denied).isEqualTo(2);
  }

  @Test
  void aShadowRuleWouldDenyButDeniesNothing() throws Exception {
    String yaml =
        "rules:\n"
            + "  - { id: trial, match: { path: /** }, key: ip, limit: 2, window: 1m, shadow: true"
            + " }\n";
    String log =
        get("10.0.0.1", 1, "/a", "") + get("10.0.0.1", 2, "/a", "") + get("10.0.0.1", 3, "/a", "");
    Replay replay = replay(yaml, "%h %t \"%r\"", log);
    assertThat(replay.tallies()[0].denied).isEqualTo(1);
    assertThat(replay.denied).isZero();
    assertThat(replay.shadowDenied).isEqualTo(1);
  }

  @Test
  void aDeniedRequestTakesNothingFromTheOtherRulesAsLive() throws Exception {
    String yaml =
        "rules:\n"
            + "  - { id: per-ip, match: { path: /** }, key: ip, limit: 3, window: 1m }\n"
            + "  - { id: login, match: { path: /login }, key: ip, limit: 2, window: 1m }\n";
    String[] paths = {"/login", "/login", "/login", "/a", "/b"};
    StringBuilder log = new StringBuilder();
    for (int i = 0; i < paths.length; i++) {
      log.append(get("10.0.0.1", i, paths[i], ""));
    }
    Replay replay = replay(yaml, "%h %t \"%r\"", log.toString());
    // The third /login is denied by login and so not counted by per-ip: /a is allowed, /b is not.
    assertThat(replay.tallies()[0].denied).isEqualTo(1);
    assertThat(replay.tallies()[1].denied).isEqualTo(1);
    assertThat(replay.denied).isEqualTo(2);
  }

  @Test
  void trustedProxiesApplyToTheLoggedForwardingChainAsLive() throws Exception {
    String yaml =
        "client_ip: { trusted_proxies: [10.0.0.0/8] }\n"
            + "rules:\n  - { id: per-ip, match: { path: /** }, key: ip, limit: 1, window: 1m }\n";
    String log =
        get("10.0.0.5", 1, "/a", " \"198.51.100.1\"")
            + get("10.0.0.6", 2, "/a", " \"198.51.100.1, 10.0.0.5\"")
            + get("10.0.0.5", 3, "/a", " \"198.51.100.2\"")
            + get("203.0.113.9", 4, "/a", " \"198.51.100.2\"");
    Replay replay = replay(yaml, "%a %t \"%r\" \"%{X-Forwarded-For}i\"", log);
    RuleTally perIp = replay.tallies()[0];
    assertThat(replay.top(perIp, 10))
        .extracting(s -> s.identity)
        .containsExactly("ip=198.51.100.1");
    assertThat(perIp.identities()).as("198.51.100.1, .2 and the untrusted peer").isEqualTo(3);
  }

  @Test
  void whatTheRulesAskOfTheLogInVainIsNamed() throws Exception {
    String yaml =
        "rules:\n"
            + "  - { id: u, match: { path: /** }, key: [user, header:X-Tenant], limit: 1, window:"
            + " 1m }\n";
    Replay replay = new Replay(rules(yaml), 10, AccessLogFormat.of("%h %t \"%r\""));
    Set<String> notLogged =
        replay.run(new BufferedReader(new StringReader(get("10.0.0.1", 1, "/", ""))));
    assertThat(notLogged).containsExactly("remote user (%u)");
    assertThat(replay.tallies()[0].matched).isZero();
  }

  @Test
  void aLogThatFailsToReadMidwayFailsTheReplayInsteadOfEndingIt() throws Exception {
    String yaml = "rules:\n  - { id: a, match: { path: /** }, key: ip, limit: 1, window: 1m }\n";
    Reader failing =
        new Reader() {
          private final Reader lines = new StringReader(get("10.0.0.1", 1, "/", "").repeat(3000));

          @Override
          public int read(char[] into, int at, int length) throws IOException {
            int read = lines.read(into, at, length);
            if (read < 0) {
              throw new IOException("disk gone");
            }
            return read;
          }

          @Override
          public void close() {}
        };
    Replay replay =
        new Replay(rules(yaml), MemoryStore.DEFAULT_MAX_KEYS, AccessLogFormat.of("%h %t \"%r\""));
    assertThatThrownBy(() -> replay.run(new BufferedReader(failing, 4096)))
        .isInstanceOf(IOException.class)
        .hasMessage("disk gone");
  }

  /** {@code chars} x's, made as they are read, then {@code rest}: one line longer than a heap. */
  private static Reader hugeLineThen(long chars, String rest) {
    return new Reader() {
      private final Reader tail = new StringReader(rest);
      private long left = chars;

      @Override
      public int read(char[] into, int at, int length) throws IOException {
        if (left == 0) {
          return tail.read(into, at, length);
        }
        int n = (int) Math.min(length, left);
        Arrays.fill(into, at, at + n, 'x');
        left -= n;
        return n;
      }

      @Override
      public void close() {}
    };
  }

  /**
   * A line of 2 GiB (a gzip of zeros is one) would fill the heap, or pass what a String can hold,
   * if read whole: it is passed over, and skipped and counted like any line that does not fit.
   */
  @Test
  void aLineTooLongIsPassedOverAndCountedAsSkipped() throws Exception {
    String yaml = "rules:\n  - { id: a, match: { path: /** }, key: ip, limit: 1, window: 1m }\n";
    Replay replay =
        new Replay(rules(yaml), MemoryStore.DEFAULT_MAX_KEYS, AccessLogFormat.of("%h %t \"%r\""));
    String fits = get("10.0.0.1", 1, "/", "");
    replay.run(new BufferedReader(hugeLineThen((1L << 31) + 1, "\r\n" + fits + fits)));
    assertThat(replay.lines).isEqualTo(3);
    assertThat(replay.skipped).isEqualTo(1);
    assertThat(replay.skips)
        .extracting(Object::toString)
        .containsExactly("line 1: longer than 65536 characters, the most read of a line");
    assertThat(replay.tallies()[0].matched).isEqualTo(2);
    assertThat(replay.denied).isEqualTo(1);
  }

  /**
   * Each identity followed holds figures for every rule, so with 50 rules a million identities
   * would take 2 GB: how many are followed one by one scales down with the number of rules, within
   * 256 MiB (500 rules: 268435456 / (128 + 500 rules x 40 bytes) = 13,336). Every request is still
   * counted in all.
   */
  @Test
  void theIdentitiesFollowedScaleDownWithTheNumberOfRules() throws Exception {
    StringBuilder yaml = new StringBuilder("rules:\n");
    for (int r = 0; r < 500; r++) {
      yaml.append("  - { id: r" + r + ", match: { path: /r" + r + " }, key: ip, limit: 1,");
      yaml.append(" window: 1m }\n");
    }
    int clients = 14_000;
    StringBuilder log = new StringBuilder();
    for (int i = 0; i < clients; i++) {
      log.append(get("10.0." + (i >> 8) + "." + (i & 255), 1, "/r0", ""));
    }
    Replay replay = replay(yaml.toString(), "%h %t \"%r\"", log.toString());
    RuleTally r0 = replay.tallies()[0];
    assertThat(r0.matched).isEqualTo(clients);
    assertThat(r0.identities()).isEqualTo(13_336);
    assertThat(r0.untracked()).isEqualTo(clients - 13_336);
  }

  /**
   * A few thousand lines of many clients over three algorithms, replayed, agree request for request
   * with a limiter that sees the same requests at the same times on a clock moved by hand.
   */
  @Test
  void agreesWithALimiterDecidingTheSameRequestsLive() throws Exception {
    String yaml =
        "exclude: [/health]\n"
            + "rules:\n"
            + "  - { id: login, match: { path: /login, methods: [POST] }, key: ip, limit: 5,"
            + " window: 1m, algorithm: token_bucket, burst: 3 }\n"
            + "  - { id: api, match: { path: /api/** }, key: ip, limit: 4, window: 10s }\n"
            + "  - { id: all, match: { path: /** }, key: global, limit: 300, window: 1m,"
            + " algorithm: fixed_window }\n"
            + "  - { id: trial, match: { path: /api/** }, key: ip, limit: 2, window: 5s,"
            + " shadow: true }\n";
    Random random = new Random(12);
    String[] paths = {"/login", "/api/items", "/api/items/7", "/health", "/"};
    ManualClock clock = new ManualClock(START * ManualClock.SECOND);
    Limiter live = new Limiter(new MemoryStore(clock, MemoryStore.DEFAULT_MAX_KEYS, 0));
    live.apply(rules(yaml));
    long[] liveDenied = new long[4];
    List<String> lines = new ArrayList<>();
    long second = START;
    for (int i = 0; i < 5000; i++) {
      second += random.nextInt(10) == 0 ? 1 : 0;
      clock.advance(second * ManualClock.SECOND - clock.micros());
      String ip = "10.0." + random.nextInt(3) + "." + random.nextInt(4);
      String method = random.nextBoolean() ? "POST" : "GET";
      String path = paths[random.nextInt(paths.length)];
      Decision decision = live.decide(new TestRequest(method, path).from(ip));
      for (int r = 0; r < 4; r++) {
        boolean shadow = r == 3;
        boolean denied =
            shadow
                ? decision.permit(r) != null && !decision.permit(r).verdict().allowed()
                : decision.deniedBy(r);
        liveDenied[r] += denied ? 1 : 0;
      }
      lines.add(ip + " - - [" + clf(second) + "] \"" + method + " " + path + " HTTP/1.1\" 200 1");
    }
    Replay replay = replay(yaml, "common", lines.stream().collect(Collectors.joining("\n")));
    long[] replayed = new long[4];
    for (int r = 0; r < 4; r++) {
      replayed[r] = replay.tallies()[r].denied;
    }
    assertThat(replayed).containsExactly(liveDenied);
    assertThat(liveDenied).as("every rule denies some").doesNotContain(0L);
    assertThat(replay.skipped).isZero();
  }

  private static String clf(long epochSecond) {
    return CLF.format(Instant.ofEpochSecond(epochSecond).atOffset(ZoneOffset.ofHours(-7)));
  }
}
