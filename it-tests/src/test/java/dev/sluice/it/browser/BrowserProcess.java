package dev.sluice.it.browser;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Comparator;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The Chromium process and its throwaway profile. The DevTools port is chosen by Chromium (port 0,
 * so parallel runs never collide) and announced on stderr, which is read to the end so that the
 * browser never blocks on a full pipe; its last lines explain a failed start.
 */
final class BrowserProcess implements AutoCloseable {
  private static final String LISTENING = "DevTools listening on ";
  private static final int TAIL_LINES = 40;

  private final Path profile;
  private final Process process;
  private final CompletableFuture<URI> endpoint = new CompletableFuture<>();
  private final Deque<String> tail = new ArrayDeque<>();
  private final Duration startTimeout;

  private BrowserProcess(Path profile, Process process, Duration startTimeout) {
    this.profile = profile;
    this.process = process;
    this.startTimeout = startTimeout;
  }

  static BrowserProcess start(Path executable, Duration startTimeout) throws IOException {
    Path profile = Files.createTempDirectory("sluice-chromium-");
    List<String> command =
        List.of(
            executable.toString(),
            "--headless=new",
            "--no-sandbox",
            "--disable-gpu",
            "--remote-debugging-port=0",
            "--user-data-dir=" + profile,
            "about:blank");
    Process process;
    try {
      process = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    } catch (IOException | RuntimeException e) {
      delete(profile);
      throw e;
    }
    BrowserProcess browser = new BrowserProcess(profile, process, startTimeout);
    Thread reader = new Thread(browser::readStderr, "chromium-stderr");
    reader.setDaemon(true);
    reader.start();
    return browser;
  }

  private void readStderr() {
    try (BufferedReader lines =
        new BufferedReader(
            new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8))) {
      for (String line = lines.readLine(); line != null; line = lines.readLine()) {
        if (line.startsWith(LISTENING)) {
          endpoint.complete(URI.create(line.substring(LISTENING.length()).trim()));
        }
        synchronized (tail) {
          tail.addLast(line);
          if (tail.size() > TAIL_LINES) {
            tail.removeFirst();
          }
        }
      }
    } catch (IOException e) {
      // The process is gone; whoever waits for the endpoint learns it below.
    }
    endpoint.completeExceptionally(new IllegalStateException("Chromium exited before DevTools"));
  }

  /** The browser's DevTools WebSocket, once Chromium has said where it listens. */
  URI devToolsEndpoint() throws Exception {
    return endpoint.get(startTimeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** Chromium's last stderr lines, for a failure message. */
  String stderrTail() {
    synchronized (tail) {
      return "\nChromium's stderr ends with:\n" + String.join("\n", tail);
    }
  }

  boolean awaitExit(Duration timeout) {
    try {
      return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  @Override
  public void close() {
    quit(() -> {});
  }

  /**
   * Asks Chromium to quit ({@code ask}), which lets it end its helper processes itself, then kills
   * whatever is left of it and its helpers, and deletes the profile.
   */
  void quit(Runnable ask) {
    // Taken first: once the browser is gone, its helpers are no longer its descendants.
    List<ProcessHandle> helpers = process.descendants().toList();
    try {
      ask.run();
      awaitExit(Duration.ofSeconds(5));
    } finally {
      process.destroyForcibly();
      helpers.forEach(ProcessHandle::destroyForcibly);
      awaitExit(Duration.ofSeconds(10));
      for (ProcessHandle helper : helpers) {
        helper.onExit().completeOnTimeout(helper, 5, TimeUnit.SECONDS).join();
      }
      delete(profile);
    }
  }

  private static void delete(Path dir) {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(BrowserProcess::deleteOne);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete Chromium's profile " + dir, e);
    }
  }

  private static void deleteOne(Path file) {
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete " + file, e);
    }
  }
}
