package dev.sluice.config;

import static dev.sluice.store.ManualClock.SECOND;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.LogCapture;
import dev.sluice.store.ManualClock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigWatcherTest {
  private static final String RULE =
      "rules:\n  - { id: a, match: { path: /a }, key: ip, limit: %d, window: 1m }\n";

  @TempDir Path dir;

  @Test
  void aReloadThatThrowsAnErrorStopsNothingAndIsLoggedOnce() throws Exception {
    Path file = dir.resolve("ratelimit.yaml");
    Files.write(file, String.format(RULE, 1).getBytes(StandardCharsets.UTF_8));
    ManualClock clock = new ManualClock(1_800_000_000L * SECOND);
    AtomicInteger polls = new AtomicInteger();
    CountDownLatch applied = new CountDownLatch(1);
    try (LogCapture log = LogCapture.of("dev.sluice.config");
        LiveLimiter live = LiveLimiter.manual(ConfigSource.of(file.toString(), null), clock)) {
      Files.write(file, String.format(RULE, 100).getBytes(StandardCharsets.UTF_8));
      Runnable reload =
          () -> {
            if (polls.incrementAndGet() <= 2) {
              throw new OutOfMemoryError("Java heap space"); // as a 300 MB file once caused
            }
            if (live.reload()) {
              applied.countDown();
            }
          };
      try (ConfigWatcher watcher = new ConfigWatcher(file, reload, 10)) {
        assertThat(applied.await(10, TimeUnit.SECONDS)).as("the edit applied").isTrue();
      }
      assertThat(live.limiter().rules().rules().get(0).quota().limit()).isEqualTo(100);
      assertThat(log.messages()).filteredOn(m -> m.contains("reload failed")).hasSize(1);
    }
  }
}
