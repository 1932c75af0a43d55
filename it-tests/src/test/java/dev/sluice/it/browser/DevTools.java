package dev.sluice.it.browser;

import com.google.gson.Gson;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * One Chrome DevTools Protocol connection to the browser, in flat mode: commands for a page carry
 * its session id, so a single WebSocket serves the browser and all its pages. Gson comes with the
 * filter's Jedis, already on the test class path.
 */
final class DevTools implements WebSocket.Listener, AutoCloseable {
  /** An event: {@code sessionId} is null for the browser's own. */
  record Event(String method, String sessionId, JsonObject params) {}

  private static final Gson GSON = new Gson();

  private final Duration timeout;
  private final AtomicInteger ids = new AtomicInteger();
  private final Map<Integer, CompletableFuture<JsonObject>> pending = new ConcurrentHashMap<>();
  private final List<Consumer<Event>> listeners = new CopyOnWriteArrayList<>();
  // Big answers (screenshots) arrive in several frames; only the listener's thread touches this.
  private final StringBuilder frames = new StringBuilder();
  private volatile WebSocket socket;
  private volatile Throwable broken;

  private DevTools(Duration timeout) {
    this.timeout = timeout;
  }

  static DevTools connect(URI endpoint, Duration timeout) throws Exception {
    DevTools tools = new DevTools(timeout);
    tools.socket =
        HttpClient.newHttpClient()
            .newWebSocketBuilder()
            .connectTimeout(timeout)
            .buildAsync(endpoint, tools)
            .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    return tools;
  }

  /** Called on the WebSocket's thread: listeners must not wait for answers (use {@link #post}). */
  void listen(Consumer<Event> listener) {
    listeners.add(listener);
  }

  /** Sends a command and waits, boundedly, for its result; a protocol error throws. */
  JsonObject call(String sessionId, String method, JsonObject params) {
    CompletableFuture<JsonObject> answer = post(sessionId, method, params);
    try {
      return answer.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      throw new IllegalStateException(method + ": no answer within " + timeout, e);
    } catch (ExecutionException e) {
      throw new IllegalStateException(method + ": " + e.getCause().getMessage(), e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(method + ": interrupted", e);
    }
  }

  /** Sends a command without waiting for its result. */
  synchronized CompletableFuture<JsonObject> post(
      String sessionId, String method, JsonObject params) {
    CompletableFuture<JsonObject> answer = new CompletableFuture<>();
    if (broken != null) {
      answer.completeExceptionally(broken);
      return answer;
    }
    int id = ids.incrementAndGet();
    JsonObject message = new JsonObject();
    message.addProperty("id", id);
    message.addProperty("method", method);
    message.add("params", params == null ? new JsonObject() : params);
    if (sessionId != null) {
      message.addProperty("sessionId", sessionId);
    }
    pending.put(id, answer);
    try {
      // One send at a time, as java.net.http.WebSocket requires: hence synchronized, and the wait.
      socket.sendText(GSON.toJson(message), true).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      pending.remove(id);
      answer.completeExceptionally(e);
    } catch (ExecutionException | TimeoutException e) {
      pending.remove(id);
      answer.completeExceptionally(e);
    }
    return answer;
  }

  /** Builds command parameters from name, value pairs. */
  static JsonObject params(Object... namesAndValues) {
    JsonObject params = new JsonObject();
    for (int i = 0; i < namesAndValues.length; i += 2) {
      params.add((String) namesAndValues[i], GSON.toJsonTree(namesAndValues[i + 1]));
    }
    return params;
  }

  @Override
  public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
    frames.append(data);
    if (last) {
      JsonObject message = JsonParser.parseString(frames.toString()).getAsJsonObject();
      frames.setLength(0);
      dispatch(message);
    }
    webSocket.request(1);
    return null;
  }

  private void dispatch(JsonObject message) {
    JsonElement sessionId = message.get("sessionId");
    String session = sessionId == null ? null : sessionId.getAsString();
    if (message.has("id")) {
      CompletableFuture<JsonObject> answer = pending.remove(message.get("id").getAsInt());
      if (answer == null) {
        return;
      }
      if (message.has("error")) {
        answer.completeExceptionally(new IllegalStateException(message.get("error").toString()));
      } else {
        answer.complete(message.getAsJsonObject("result"));
      }
      return;
    }
    JsonObject params =
        message.has("params") ? message.getAsJsonObject("params") : new JsonObject();
    Event event = new Event(message.get("method").getAsString(), session, params);
    listeners.forEach(listener -> listener.accept(event));
  }

  @Override
  public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
    fail(new IllegalStateException("DevTools closed the connection: " + statusCode + " " + reason));
    return null;
  }

  @Override
  public void onError(WebSocket webSocket, Throwable error) {
    fail(error);
  }

  private void fail(Throwable error) {
    broken = error;
    pending.values().forEach(answer -> answer.completeExceptionally(error));
    pending.clear();
  }

  @Override
  public void close() {
    WebSocket open = socket;
    if (open != null) {
      open.abort();
    }
    fail(new IllegalStateException("DevTools connection closed"));
  }
}
