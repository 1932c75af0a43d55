package dev.sluice.config;

import dev.sluice.support.Daemons;
import dev.sluice.support.Failures;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Pokes a reload whenever the config file may have changed: at once when the directory reports an
 * event, and every {@code pollMillis} regardless. The poll is what catches a Kubernetes ConfigMap
 * (a symlink swap that inotify reports on another path) or a file system with no events at all; the
 * reload itself compares the content, so a poke without a change costs one small read.
 */
final class ConfigWatcher implements Closeable {
  private static final Logger LOG = Logger.getLogger("dev.sluice.config");

  /** A file is read once its directory has been quiet this long, so writers can finish. */
  private static final long SETTLE_MILLIS = 200;

  /** ...but a directory that never goes quiet is read at least this often. */
  private static final long MAX_SETTLE_MILLIS = 1_000;

  /** How the watcher waits: a seam for tests, which drive the polls by hand. */
  interface Waits {
    /** The next key of {@code events} within {@code millis}, or null; sleeps when no events. */
    WatchKey next(WatchService events, long millis) throws InterruptedException;
  }

  private static final Waits REAL =
      (events, millis) -> {
        if (events == null) {
          Thread.sleep(millis);
          return null;
        }
        return events.poll(millis, TimeUnit.MILLISECONDS);
      };

  private final Thread thread;
  private final WatchService events;
  private final Waits waits;
  private final Failures failures = new Failures(LOG);
  private volatile boolean closed;

  ConfigWatcher(Path file, Runnable reload, long pollMillis) {
    this(file, reload, pollMillis, REAL);
  }

  ConfigWatcher(Path file, Runnable reload, long pollMillis, Waits waits) {
    this.waits = waits;
    // The JDK's watch service starts a thread of its own, which would inherit this one's loader.
    this.events = Daemons.detached(() -> register(file));
    this.thread = Daemons.start("sluice-config-watcher", () -> loop(reload, pollMillis));
  }

  /** File events for the file's directory, or null to poll only (no file, or no events). */
  private static WatchService register(Path file) {
    if (file == null) {
      return null;
    }
    Path dir = file.toAbsolutePath().getParent();
    WatchService service = null;
    try {
      service = dir.getFileSystem().newWatchService();
      dir.register(
          service,
          StandardWatchEventKinds.ENTRY_CREATE,
          StandardWatchEventKinds.ENTRY_MODIFY,
          StandardWatchEventKinds.ENTRY_DELETE);
      return service;
    } catch (IOException | RuntimeException e) {
      LOG.log(Level.FINE, "no file events for " + dir + "; polling only", e);
      closeQuietly(service);
      return null;
    }
  }

  private void loop(Runnable reload, long pollMillis) {
    while (!closed) {
      try {
        WatchKey key = waits.next(events, pollMillis);
        long settleUntil = System.nanoTime() + MAX_SETTLE_MILLIS * 1_000_000;
        while (key != null) {
          key.pollEvents();
          key.reset();
          key = System.nanoTime() < settleUntil ? waits.next(events, SETTLE_MILLIS) : null;
        }
        reload.run();
      } catch (InterruptedException | ClosedWatchServiceException e) {
        return;
      } catch (Throwable t) {
        // Whatever one reload throws, even an Error, the next edit must still be seen: a thread
        // that died here would leave the rules of that moment in force for good, silently.
        failures.log("Sluice: a config reload failed; the next poll tries again", t);
      }
    }
  }

  /** Stops the thread and waits for it, so a container undeploying the app sees no thread left. */
  @Override
  public void close() {
    closed = true;
    thread.interrupt();
    closeQuietly(events);
    try {
      thread.join(1_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void closeQuietly(WatchService service) {
    try {
      if (service != null) {
        service.close();
      }
    } catch (IOException e) {
      // Nothing left to release.
    }
  }
}
