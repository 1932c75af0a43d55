package dev.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.support.WebAppLoader;
import java.lang.ref.WeakReference;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The threads a limiter starts when a web application's thread opens it (the Filter's init; the
 * agent's limiter is opened on a thread of its own, but its pools grow on request threads): named,
 * daemon, and carrying nothing of that application, neither its class loader as their context
 * loader nor the access-control context of its code on the stack, either of which would keep an
 * undeployed application from being collected.
 */
class WebAppThreadsTest {
  @TempDir Path dir;

  /** What a web application's filter does in its init: opens the limiter of a file. */
  public static final class OpenLimiter implements Function<Object, Object> {
    @Override
    public Object apply(Object config) {
      return LiveLimiter.start(ConfigSource.of(config.toString(), null), "web-app-threads");
    }
  }

  @Test
  void theLimitersThreadsKeepNothingOfTheWebAppThatOpenedIt() throws Exception {
    Path config = dir.resolve("ratelimit.yaml");
    Files.write(
        config,
        "rules:\n  - { id: a, match: { path: /a }, key: ip, limit: 5, window: 1m }\n".getBytes());
    Set<Thread> before = Thread.getAllStackTraces().keySet();
    AtomicReference<WeakReference<ClassLoader>> loader = new AtomicReference<>();
    LiveLimiter live =
        (LiveLimiter) WebAppLoader.callOnItsThread(OpenLimiter.class, config, loader);
    try {
      Set<Thread> started = new HashSet<>(Thread.getAllStackTraces().keySet());
      started.removeAll(before);
      assertThat(started)
          .extracting(Thread::getName)
          .contains("sluice-config-watcher", "sluice-memory-sweeper");
      assertThat(started)
          .allSatisfy(
              thread -> {
                assertThat(thread.getName())
                    .as("Sluice's threads, and the JDK's for the file events")
                    .matches("sluice-.*|FileSystemWatchService");
                assertThat(thread.isDaemon()).as(thread.getName() + " is daemon").isTrue();
                assertThat(thread.getContextClassLoader())
                    .as(thread.getName() + "'s context class loader")
                    .isNull();
              });
      assertThat(WebAppLoader.collected(loader.get(), 50))
          .as("the web app's loader is collected while the limiter it opened runs")
          .isTrue();
    } finally {
      live.close();
    }
  }
}
