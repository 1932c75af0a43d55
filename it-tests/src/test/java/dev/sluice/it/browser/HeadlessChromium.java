package dev.sluice.it.browser;

import static dev.sluice.it.browser.DevTools.params;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A headless Chromium with one page, driven over the DevTools protocol: open a URL (with extra
 * request headers, for the admin token), evaluate JavaScript, wait for a condition, take a
 * screenshot, and read what went wrong on the page ({@link #errors}). Every wait is bounded; close
 * kills the browser and deletes its profile.
 */
public final class HeadlessChromium implements AutoCloseable {
  /** The longest any one step waits: a command's answer, a page load, a condition. */
  public static final Duration WAIT = Duration.ofSeconds(15);

  private static final int WIDTH = 1280;
  private static final int HEIGHT = 800;

  private final BrowserProcess process;
  private final DevTools devTools;
  private final String session;
  private final ConsoleErrors errors;
  private volatile CompletableFuture<Void> loaded = new CompletableFuture<>();

  private HeadlessChromium(BrowserProcess process, DevTools devTools) {
    this.process = process;
    this.devTools = devTools;
    String target =
        devTools
            .call(null, "Target.createTarget", params("url", "about:blank"))
            .get("targetId")
            .getAsString();
    session =
        devTools
            .call(null, "Target.attachToTarget", params("targetId", target, "flatten", true))
            .get("sessionId")
            .getAsString();
    errors = new ConsoleErrors(session);
    devTools.listen(errors);
    devTools.listen(this::onEvent);
    for (String domain : List.of("Page", "Runtime", "Log", "Network")) {
      devTools.call(session, domain + ".enable", null);
    }
    devTools.call(
        session,
        "Emulation.setDeviceMetricsOverride",
        params("width", WIDTH, "height", HEIGHT, "deviceScaleFactor", 1, "mobile", false));
  }

  /** Starts a browser, or skips the test (fails it on CI) where there is no Chromium. */
  public static HeadlessChromium start() throws IOException {
    BrowserProcess process = BrowserProcess.start(Chromium.executable(), WAIT.multipliedBy(2));
    DevTools devTools = null;
    try {
      devTools = DevTools.connect(process.devToolsEndpoint(), WAIT);
      return new HeadlessChromium(process, devTools);
    } catch (Exception | Error e) {
      if (devTools != null) {
        devTools.close();
      }
      process.close();
      throw new IllegalStateException("Chromium did not start: " + e + process.stderrTail(), e);
    }
  }

  private void onEvent(DevTools.Event event) {
    if (!session.equals(event.sessionId())) {
      return;
    }
    if (event.method().equals("Page.loadEventFired")) {
      loaded.complete(null);
    } else if (event.method().equals("Page.javascriptDialogOpening")) {
      // ConsoleErrors records it; a dialog left open would block the page's script.
      devTools.post(session, "Page.handleJavaScriptDialog", params("accept", false));
    }
  }

  /** Loads {@code url}, sending {@code headers} with it and every request the page makes. */
  public void open(String url, Map<String, String> headers) throws Exception {
    devTools.call(session, "Network.setExtraHTTPHeaders", params("headers", headers));
    loaded = new CompletableFuture<>();
    JsonObject navigation = devTools.call(session, "Page.navigate", params("url", url));
    if (navigation.has("errorText")) {
      throw new IllegalStateException(url + " did not load: " + navigation.get("errorText"));
    }
    loaded.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
  }

  /**
   * Runs {@code expression}, which leaves the page (a form's submit, say), and waits for the page
   * it leads to to load.
   */
  public void navigateBy(String expression) throws Exception {
    loaded = new CompletableFuture<>();
    evaluate(expression);
    loaded.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** The HTTP status the document shown now was answered with. */
  public int status() {
    return evaluate("performance.getEntriesByType('navigation')[0].responseStatus").getAsInt();
  }

  /** The cookies the browser keeps, as the DevTools protocol describes each. */
  public JsonArray cookies() {
    return devTools.call(session, "Network.getCookies", null).getAsJsonArray("cookies");
  }

  /** The value of a JavaScript expression (promises awaited); one that throws fails the test. */
  public JsonElement evaluate(String expression) {
    JsonObject answer =
        devTools.call(
            session,
            "Runtime.evaluate",
            params("expression", expression, "returnByValue", true, "awaitPromise", true));
    if (answer.has("exceptionDetails")) {
      throw new IllegalStateException(expression + " threw " + answer.get("exceptionDetails"));
    }
    JsonObject result = answer.getAsJsonObject("result");
    return result.has("value") ? result.get("value") : JsonNull.INSTANCE;
  }

  /** Waits until {@code expression} is true, at most {@link #WAIT}. */
  public void waitUntil(String expression, String what) throws InterruptedException {
    long deadline = System.nanoTime() + WAIT.toNanos();
    JsonElement last = JsonNull.INSTANCE;
    while (System.nanoTime() < deadline) {
      last = evaluate(expression);
      if (last.isJsonPrimitive() && last.getAsJsonPrimitive().isBoolean() && last.getAsBoolean()) {
        return;
      }
      Thread.sleep(100);
    }
    throw new AssertionError(
        "not within "
            + WAIT.toSeconds()
            + " s: "
            + what
            + " ("
            + expression
            + " was "
            + last
            + "); page errors: "
            + errors());
  }

  /** A PNG of the 1280x800 viewport. */
  public void screenshot(Path file) throws IOException {
    JsonObject shot = devTools.call(session, "Page.captureScreenshot", params("format", "png"));
    Files.createDirectories(file.toAbsolutePath().getParent());
    Files.write(file, Base64.getDecoder().decode(shot.get("data").getAsString()));
  }

  /** Everything that went wrong on the page so far, one line each (see {@link ConsoleErrors}). */
  public List<String> errors() {
    return errors.snapshot();
  }

  @Override
  public void close() {
    try {
      process.quit(() -> devTools.post(null, "Browser.close", null));
    } finally {
      devTools.close();
    }
  }
}
