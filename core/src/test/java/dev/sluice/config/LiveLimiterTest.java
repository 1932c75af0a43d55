package dev.sluice.config;

import static dev.sluice.store.ManualClock.SECOND;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.LogCapture;
import dev.sluice.core.RequestView;
import dev.sluice.core.TestRequest;
import dev.sluice.metrics.ConfigStatus;
import dev.sluice.store.ForwardingStore;
import dev.sluice.store.ManualClock;
import dev.sluice.store.RulesInForce;
import dev.sluice.store.Store;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LiveLimiterTest {
  private static final RequestView HELLO = TestRequest.get("/hello");
  private static final String LOGIN =
      "  - { id: login, match: { path: /login }, key: ip, limit: 5, window: 1m }\n";
  private static final String OLD =
      "  - { id: old, match: { path: /old }, key: ip, limit: 1, window: 1s, shadow: true }\n";

  @TempDir Path dir;
  private final ManualClock clock = new ManualClock(1_800_000_000L * SECOND);

  private Path write(String limit) throws Exception {
    return write(limit, true);
  }

  private Path write(String limit, boolean enabled) throws Exception {
    return writeFile("enabled: " + enabled + "\n" + rules(limit));
  }

  private static String rules(String limit) {
    return "rules:\n  - { id: hello, match: { path: /hello }, key: ip, limit: "
        + limit
        + ", window: 1m, algorithm: fixed_window }\n";
  }

  private Path writeFile(String yaml) throws Exception {
    Path file = dir.resolve("ratelimit.yaml");
    Path next = dir.resolve("next.yaml");
    Files.write(next, yaml.getBytes(StandardCharsets.UTF_8));
    return Files.move(
        next, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  private static int admitted(LiveLimiter live, int attempts) {
    return admitted(live, HELLO, attempts);
  }

  private static int admitted(LiveLimiter live, RequestView request, int attempts) {
    int allowed = 0;
    for (int i = 0; i < attempts; i++) {
      allowed += live.limiter().decide(request).allowed() ? 1 : 0;
    }
    return allowed;
  }

  private LiveLimiter manual(Path file) {
    return LiveLimiter.manual(ConfigSource.of(file.toString(), null), clock);
  }

  @Test
  void aValidChangeAppliesAndKeepsTheCounts() throws Exception {
    try (LiveLimiter live = manual(write("2"))) {
      assertThat(admitted(live, 1)).isEqualTo(1);
      write("4");
      assertThat(live.reload()).isTrue();
      assertThat(admitted(live, 5)).as("1 of 4 already taken").isEqualTo(3);
      assertThat(live.reload()).as("nothing changed").isFalse();
    }
  }

  @Test
  void theKillSwitchLetsEverythingThroughAndSwitchingBackResumesTheCounts() throws Exception {
    try (LiveLimiter live = manual(write("2"))) {
      assertThat(admitted(live, 1)).isEqualTo(1);
      write("2", false);
      assertThat(live.reload()).isTrue();
      assertThat(admitted(live, 10)).as("disabled: all pass").isEqualTo(10);
      assertThat(live.limiter().decide(HELLO).ruleId()).as("no headers either").isNull();
      write("2", true);
      assertThat(live.reload()).isTrue();
      assertThat(admitted(live, 5)).as("1 of 2 taken before the switch").isEqualTo(1);
    }
  }

  @Test
  void anInvalidChangeKeepsTheLastGoodRules() throws Exception {
    try (LiveLimiter live = manual(write("2"))) {
      write("0");
      assertThat(live.reload()).isFalse();
      assertThat(admitted(live, 5)).isEqualTo(2);
      write("3");
      assertThat(live.reload()).as("a fix is picked up").isTrue();
    }
  }

  @Test
  void withoutAFileNothingIsLimitedUntilOneAppears() throws Exception {
    try (LiveLimiter live = manual(dir.resolve("ratelimit.yaml"))) {
      assertThat(admitted(live, 5)).isEqualTo(5);
      write("1");
      assertThat(live.reload()).isTrue();
      assertThat(admitted(live, 5)).isEqualTo(1);
    }
  }

  @Test
  void aClasspathResourceThatAppearsLaterIsPickedUp() throws Exception {
    try (java.net.URLClassLoader loader =
            new java.net.URLClassLoader(new java.net.URL[] {dir.toUri().toURL()}, null);
        LiveLimiter live =
            LiveLimiter.manual(ConfigSource.of("classpath:ratelimit.yaml", loader), clock)) {
      assertThat(admitted(live, 3)).isEqualTo(3);
      write("1");
      assertThat(live.reload()).isTrue();
      assertThat(admitted(live, 3)).isEqualTo(1);
    }
  }

  @Test
  void anInvalidFileIsReportedEachTimeItComesBack() throws Exception {
    try (LogCapture log = LogCapture.of("dev.sluice.config");
        LiveLimiter live = manual(write("2"))) {
      write("0");
      live.reload();
      live.reload();
      write("2");
      live.reload();
      write("0");
      live.reload();
      assertThat(log.messages()).filteredOn(w -> w.contains("rejected")).hasSize(2);
    }
  }

  @Test
  void unchangedInvalidContentIsParsedOnce() throws Exception {
    try (LiveLimiter live = manual(write("0"))) {
      live.reload();
      live.reload();
      live.reload();
      assertThat(live.parses()).isEqualTo(1);
      write("3");
      assertThat(live.reload()).isTrue();
      assertThat(live.parses()).isEqualTo(2);
    }
  }

  @Test
  void aHugeFileIsRejectedUnreadAndTheRulesStay() throws Exception {
    Path file = write("1");
    try (LogCapture log = LogCapture.of("dev.sluice.config");
        LiveLimiter live = manual(file)) {
      try (RandomAccessFile huge = new RandomAccessFile(file.toFile(), "rw")) {
        huge.setLength(300L << 20); // sparse: 300 MB that take no disk and no time to make
      }
      assertThat(live.reload()).isFalse();
      assertThat(live.reload()).isFalse();
      assertThat(live.parses()).as("the first file only").isEqualTo(1);
      assertThat(admitted(live, 5)).isEqualTo(1);
      assertThat(log.messages())
          .filteredOn(m -> m.contains("larger than 1 MiB"))
          .singleElement()
          .asString()
          .startsWith("Sluice rejected " + file + "; the last good rules stay in force:\n");
    }
  }

  @Test
  void aRevertToTheRulesInForceSaysTheyAreValidAgainOnce() throws Exception {
    Path file = write("2");
    try (LogCapture log = LogCapture.of("dev.sluice.config");
        LiveLimiter live = manual(file)) {
      live.reload();
      write("0");
      live.reload();
      write("2");
      assertThat(live.reload()).as("nothing new to apply").isFalse();
      live.reload();
      assertThat(log.messages())
          .filteredOn(m -> m.contains("valid again"))
          .containsExactly("Sluice: " + file + " is valid again and holds the rules in force");
    }
  }

  @Test
  void warningsAreLoggedAndTheRulesAreInForce() throws Exception {
    Path file = dir.resolve("ratelimit.yaml");
    Files.writeString(
        file,
        "rules:\n  - { id: hello, match: { path: /hello }, key: ip, limit: 1, window: 1m,"
            + " tiers: { gold: 9 } }\n");
    try (LogCapture log = LogCapture.of("dev.sluice.config");
        LiveLimiter live = manual(file)) {
      assertThat(admitted(live, 3)).isEqualTo(1);
      assertThat(log.messages())
          .filteredOn(m -> m.contains("tier gold"))
          .singleElement()
          .asString()
          .startsWith("Sluice: " + file + ":2:");
    }
  }

  @Test
  void rulesWithoutTheApplicationsContextPathAreWarnedAboutNowAndAtEachReload() throws Exception {
    Path file = write("2");
    try (LogCapture log = LogCapture.of("dev.sluice.config");
        LiveLimiter live = manual(file)) {
      live.servesContext("");
      live.servesContext("/hello");
      live.servesContext("/examples");
      write("3");
      live.reload();
      assertThat(log.messages())
          .filteredOn(m -> m.contains("context path"))
          .containsExactly(
              "Sluice: rule hello (/hello) matches no request of this application: rule paths"
                  + " include the context path, and every path here starts with /examples;"
                  + " write /examples/hello, or /*/hello for any application",
              "Sluice: rule hello (/hello) matches no request of this application: rule paths"
                  + " include the context path, and every path here starts with /examples;"
                  + " write /examples/hello, or /*/hello for any application");
    }
  }

  /** What {@code log} said of the rules applied. */
  private static List<String> applied(LogCapture log) {
    return log.messages().stream().filter(m -> m.contains("(rules version ")).toList();
  }

  /** The version of the file as it is now. */
  private String version() throws Exception {
    return RulesVersion.of(Files.readAllBytes(dir.resolve("ratelimit.yaml")));
  }

  @Test
  void theFirstFileLogsTheRulesInForceWithItsVersion() throws Exception {
    Path file = writeFile("rules:\n" + LOGIN + OLD);
    try (LogCapture log = LogCapture.of("dev.sluice.config");
        LiveLimiter live = manual(file)) {
      assertThat(applied(log))
          .containsExactly(
              "Sluice: 2 rules in force from "
                  + file
                  + " (rules version "
                  + version()
                  + "): login (5/1m), old (1/1s, shadow)");
    }
  }

  @Test
  void aReloadLogsTheRulesAddedChangedAndRemovedWithTheVersion() throws Exception {
    try (LogCapture log = LogCapture.of("dev.sluice.config");
        LiveLimiter live = manual(writeFile("rules:\n" + LOGIN + OLD))) {
      Path file = writeFile(rules("3") + LOGIN.replace("window: 1m", "window: 30s"));
      assertThat(live.reload()).isTrue();
      assertThat(live.reload()).isFalse();
      assertThat(applied(log))
          .as("the first file's line, then this one's")
          .hasSize(2)
          .last()
          .isEqualTo(
              "Sluice: applied "
                  + file
                  + " (rules version "
                  + version()
                  + "): added hello (3/1m); changed login (window 1m->30s, counts start over);"
                  + " removed old");
    }
  }

  @Test
  void aRuleSwitchedToShadowAndBackIsLoggedOnceEachTime() throws Exception {
    Path file = writeFile("rules:\n" + LOGIN);
    try (LogCapture log = LogCapture.of("dev.sluice.config");
        LiveLimiter live = manual(file)) {
      writeFile("rules:\n" + LOGIN.replace("1m }", "1m, shadow: true }"));
      live.reload();
      live.reload();
      String shadow = version();
      writeFile("rules:\n" + LOGIN);
      live.reload();
      live.reload();
      assertThat(applied(log))
          .filteredOn(m -> m.startsWith("Sluice: applied "))
          .containsExactly(
              "Sluice: applied "
                  + file
                  + " (rules version "
                  + shadow
                  + "): changed login (mode enforcing->shadow)",
              "Sluice: applied "
                  + file
                  + " (rules version "
                  + version()
                  + "): changed login (mode shadow->enforcing)");
    }
  }

  @Test
  void theKillSwitchIsLoggedOnceEachWayWithTheVersion() throws Exception {
    Path file = write("2");
    try (LogCapture log = LogCapture.of("dev.sluice.config");
        LiveLimiter live = manual(file)) {
      String on = version();
      write("2", false);
      live.reload();
      live.reload();
      String off = version();
      write("2", true);
      live.reload();
      live.reload();
      assertThat(applied(log))
          .containsExactly(
              "Sluice: 1 rule in force from " + file + " (rules version " + on + "): hello (2/1m)",
              "Sluice: disabled by `enabled: false` in "
                  + file
                  + "; nothing is limited (rules version "
                  + off
                  + ")",
              "Sluice: enabled again; 1 rule in force from "
                  + file
                  + " (rules version "
                  + on
                  + "): hello (2/1m)");
    }
  }

  /** A Redis store logs as it opens (it connects then): the version must be out by then. */
  @Test
  void theStoresNameTheVersionOfAFileFromBeforeItsStoreOpens() throws Exception {
    List<String> named = new CopyOnWriteArrayList<>();
    // A limit of its own: the version it names is not one some other test left behind.
    Path file = writeFile("store: { max_keys: 1000 }\n" + rules("7"));
    try (LiveLimiter live =
        LiveLimiter.manual(
            ConfigSource.of(file.toString(), null),
            clock,
            settings -> {
              named.add(RulesInForce.named());
              return settings.open(clock);
            })) {
      String first = version();
      writeFile("store: { max_keys: 500 }\n" + rules("7"));
      assertThat(live.reload()).isTrue();
      assertThat(named)
          .containsExactly("(rules version " + first + ")", "(rules version " + version() + ")");
    }
  }

  @Test
  void underRefuseStartAnInvalidFileRefusesWithItsErrorsAndLogsNothing() throws Exception {
    Path file = write("0");
    try (LogCapture log = LogCapture.of("dev.sluice.config")) {
      assertThatThrownBy(() -> refusingStart(file))
          .isInstanceOf(StartRefusedException.class)
          .hasMessage(
              "Sluice rejected "
                  + file
                  + "; refusing to start (on_invalid_config=refuse_start):\n"
                  + file
                  + ":3:59: rules[0] (hello).limit: must be a whole number from 1 to 1000000000,"
                  + " got \"0\"");
      assertThat(log.messages()).as("the refusal says it all").isEmpty();
    }
  }

  @Test
  void underRefuseStartAMissingFileRefuses() {
    Path missing = dir.resolve("ratelimit.yaml");
    assertThatThrownBy(() -> refusingStart(missing))
        .isInstanceOf(StartRefusedException.class)
        .hasMessage(
            "Sluice found no config at "
                + missing
                + "; refusing to start (on_invalid_config=refuse_start).");
  }

  @Test
  void underRefuseStartAValidFileStartsAndALaterInvalidEditKeepsTheRules() throws Exception {
    try (LiveLimiter live = refusingStart(write("1"))) {
      write("0");
      assertThat(live.reload()).isFalse();
      assertThat(admitted(live, 3)).isEqualTo(1);
    }
  }

  private static LiveLimiter refusingStart(Path file) {
    return LiveLimiter.start(
        ConfigSource.of(file.toString(), null), OnInvalidConfig.REFUSE_START, "test");
  }

  @Test
  void aDeletedFileKeepsTheRulesInForce() throws Exception {
    Path file = write("1");
    try (LiveLimiter live = manual(file)) {
      Files.delete(file);
      assertThat(live.reload()).isFalse();
      assertThat(admitted(live, 5)).isEqualTo(1);
    }
  }

  @Test
  void aChangedStoreSectionSwitchesStoresAndCountsStartOverInTheNewOne() throws Exception {
    try (LogCapture log = LogCapture.of("dev.sluice.config");
        LiveLimiter live = manual(writeFile("store: { max_keys: 1000 }\n" + rules("2")))) {
      assertThat(admitted(live, 3)).isEqualTo(2);
      writeFile("store: { max_keys: 500 }\n" + rules("2"));
      assertThat(live.reload()).isTrue();
      assertThat(admitted(live, 3)).as("a fresh count in the new store").isEqualTo(2);
      assertThat(log.messages())
          .filteredOn(m -> m.contains("store"))
          .singleElement()
          .satisfies(
              m ->
                  assertThat(m)
                      .contains("memory (max_keys 500)")
                      .contains("memory (max_keys 1000)")
                      .contains("counts are not carried over"));
    }
  }

  @Test
  void aReplacedStoreClosesOnceItsGraceIsOverOrWithTheLimiter() throws Exception {
    List<String> closed = new CopyOnWriteArrayList<>();
    Path file = writeFile("store: { max_keys: 1000 }\n" + rules("2"));
    try (LiveLimiter live =
        LiveLimiter.manual(
            ConfigSource.of(file.toString(), null), clock, s -> notingClose(s, closed))) {
      writeFile("store: { max_keys: 500 }\n" + rules("2"));
      assertThat(live.reload()).isTrue();
      clock.advance(RetiredStores.GRACE_MICROS - 1);
      live.reload();
      assertThat(closed).as("requests may still be using it").isEmpty();
      clock.advance(1);
      live.reload();
      assertThat(closed).containsExactly("memory (max_keys 1000)");
      writeFile("store: { max_keys: 250 }\n" + rules("2"));
      assertThat(live.reload()).isTrue();
    }
    assertThat(closed)
        .as("closing the limiter closes the store in its grace, and the one in use")
        .containsExactly(
            "memory (max_keys 1000)", "memory (max_keys 500)", "memory (max_keys 250)");
  }

  @Test
  void aFileThatFailsToApplyIsTriedAgainAtTheNextReload() throws Exception {
    failsToApplyThenApplies(1, new IllegalStateException("no store today"));
  }

  /**
   * Issue 28: an OutOfMemoryError while rules were allocated left them as if in force, the status
   * "unchanged" with no problem, while the old rules were.
   */
  @Test
  void aFileThatRunsOutOfMemoryAsItIsAppliedIsRejectedWithItsProblem() throws Exception {
    failsToApplyThenApplies(2, new OutOfMemoryError("Java heap space"));
  }

  /**
   * A change whose store throws {@code thrown} as it opens at {@code failures} reloads in a row:
   * each is rejected with the problem while the rules in force stay, and the next applies it.
   */
  private void failsToApplyThenApplies(int failures, Throwable thrown) throws Exception {
    AtomicInteger opens = new AtomicInteger();
    Path file = writeFile("store: { max_keys: 1000 }\n" + rules("2"));
    try (LiveLimiter live =
        LiveLimiter.manual(
            ConfigSource.of(file.toString(), null),
            clock,
            settings -> {
              int open = opens.incrementAndGet();
              if (open > 1 && open <= 1 + failures) {
                if (thrown instanceof Error) {
                  throw (Error) thrown;
                }
                throw (RuntimeException) thrown;
              }
              return settings.open(clock);
            })) {
      String version = live.metrics().config().version();
      writeFile("store: { max_keys: 500 }\n" + rules("1"));
      for (int poll = 0; poll < failures; poll++) {
        assertThat(live.reload()).isFalse();
        assertThat(live.metrics().config().lastReload()).isEqualTo(ConfigStatus.Reload.REJECTED);
        assertThat(live.metrics().config().problem())
            .startsWith("Sluice could not apply ")
            .contains(thrown.toString());
        assertThat(live.metrics().config().version()).isEqualTo(version);
      }
      assertThat(admitted(live, 3)).as("the rules in force stay").isEqualTo(2);

      assertThat(live.reload()).as("tried again").isTrue();
      assertThat(admitted(live, 3)).isEqualTo(1);
      assertThat(live.metrics().config().version()).isNotEqualTo(version);
    }
  }

  /** A store as {@code settings} say, that adds their description to {@code closed} on close. */
  private Store notingClose(StoreSettings settings, List<String> closed) {
    return new ForwardingStore(settings.open(clock)) {
      @Override
      public void close() {
        closed.add(settings.toString());
        super.close();
      }
    };
  }


  /**
   * Without a file at start-up the default store is in use; the first file that names another one
   * must get it, or every JVM would keep counts of its own for good (a fleet admitting N limits).
   */
  @Test
  void theFirstValidFileChoosesTheStoreWhenNoneDidAtStartUp() throws Exception {
    try (LiveLimiter live = manual(dir.resolve("ratelimit.yaml"))) {
      writeFile("store: { max_keys: 1 }\n" + rules("1"));
      assertThat(live.reload()).isTrue();
      // One key: the first client has it, every other client shares the one spare counter.
      assertThat(admitted(live, TestRequest.get("/hello").from("10.0.0.1"), 1)).isEqualTo(1);
      assertThat(admitted(live, TestRequest.get("/hello").from("10.0.0.2"), 1)).isEqualTo(1);
      assertThat(admitted(live, TestRequest.get("/hello").from("10.0.0.3"), 1))
          .as("max_keys 1 of the file, not the default's million")
          .isZero();
    }
  }

  /**
   * The watcher reloads after every poll of {@value LiveLimiter#POLL_MILLIS} ms, event or not: an
   * edit is in force within that, as the watcher's own waits count it (driven here by hand, so a
   * busy machine cannot make the test pass or fail by its own clock).
   */
  @Test
  void theWatcherAppliesAChangeAtItsNextPollOfOneSecond() throws Exception {
    Path file = write("1");
    BlockingQueue<Long> asked = new LinkedBlockingQueue<>();
    Semaphore polls = new Semaphore(0);
    ConfigWatcher.Waits byHand =
        (events, millis) -> {
          asked.add(millis);
          polls.acquire();
          return null; // the poll's time passed without a file event
        };
    try (LiveLimiter live = manual(file);
        ConfigWatcher watcher =
            new ConfigWatcher(file, live::reload, LiveLimiter.POLL_MILLIS, byHand)) {
      assertThat(asked.poll(10, TimeUnit.SECONDS)).as("the first wait").isEqualTo(1_000L);
      assertThat(admitted(live, 3)).isEqualTo(1);

      write("100");
      polls.release();

      assertThat(asked.poll(10, TimeUnit.SECONDS))
          .as("the wait after the reload")
          .isEqualTo(1_000L);
      assertThat(live.limiter().rules().rules().get(0).quota().limit()).isEqualTo(100);
    }
  }
}
