package dev.sluice.it.browser;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * What a page got wrong, as one line each: errors and warnings it logged itself, uncaught
 * exceptions, and the browser's own error entries — failed loads and Content Security Policy
 * refusals reach DevTools only as Log entries, never through the page's console API. A dialog
 * (alert, confirm) counts too: a page showing one has run code it should not have.
 */
final class ConsoleErrors implements Consumer<DevTools.Event> {
  private final String sessionId;
  private final List<String> errors = new ArrayList<>();

  ConsoleErrors(String sessionId) {
    this.sessionId = sessionId;
  }

  synchronized List<String> snapshot() {
    return List.copyOf(errors);
  }

  @Override
  public void accept(DevTools.Event event) {
    if (!sessionId.equals(event.sessionId())) {
      return;
    }
    JsonObject params = event.params();
    String error =
        switch (event.method()) {
          case "Runtime.consoleAPICalled" -> consoleCall(params);
          case "Runtime.exceptionThrown" -> exception(params.getAsJsonObject("exceptionDetails"));
          case "Log.entryAdded" -> logEntry(params.getAsJsonObject("entry"));
          case "Page.javascriptDialogOpening" ->
              "dialog " + text(params, "type") + ": " + text(params, "message");
          default -> null;
        };
    if (error != null) {
      synchronized (this) {
        errors.add(error);
      }
    }
  }

  private static String consoleCall(JsonObject params) {
    String type = text(params, "type");
    if (!List.of("error", "assert", "warning").contains(type)) {
      return null;
    }
    StringBuilder line = new StringBuilder("console.").append(type).append(':');
    for (JsonElement arg : params.getAsJsonArray("args")) {
      JsonObject value = arg.getAsJsonObject();
      line.append(' ').append(value.has("value") ? value.get("value") : text(value, "description"));
    }
    return line.toString();
  }

  private static String exception(JsonObject details) {
    JsonObject thrown = details.getAsJsonObject("exception");
    String what = thrown != null && thrown.has("description") ? text(thrown, "description") : "";
    return "uncaught: " + text(details, "text") + " " + what + at(details);
  }

  private static String logEntry(JsonObject entry) {
    if (!"error".equals(text(entry, "level"))) {
      return null;
    }
    return "log (" + text(entry, "source") + "): " + text(entry, "text") + at(entry);
  }

  private static String at(JsonObject where) {
    String url = text(where, "url");
    return url.isEmpty() ? "" : " at " + url + ":" + text(where, "lineNumber");
  }

  private static String text(JsonObject object, String name) {
    JsonElement value = object.get(name);
    return value == null || value.isJsonNull() ? "" : value.getAsString();
  }
}
