package dev.sluice.it.agent.otel;

import dev.sluice.it.agent.Settings;
import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * Server spans as the OpenTelemetry agent's logging exporter prints them, one line per span when it
 * ends:
 *
 * <pre>
 * [otel.javaagent ...] INFO io.opentelemetry.exporter.logging.LoggingSpanExporter - 'GET' :
 *     &lt;trace id&gt; &lt;span id&gt; SERVER [tracer: io.opentelemetry.tomcat-10.0:...]
 *     AttributesMap{data={url.path=/api/hello, http.response.status_code=429, ...}, ...}
 * </pre>
 *
 * (one line in reality). A span ends after its response is sent, so the client may see the
 * response before the line is printed: counting waits, within a bound, for the lines to come.
 */
final class ServerSpans {
  private static final String EXPORTER = "io.opentelemetry.exporter.logging.LoggingSpanExporter";
  private static final Duration WAIT = Duration.ofSeconds(15);

  private final Supplier<String> output;

  ServerSpans(Supplier<String> output) {
    this.output = output;
  }

  /**
   * The JVM flags of the OpenTelemetry agent that prints its spans so: spans printed as they end;
   * nothing else exported, nothing sent anywhere.
   */
  static List<String> agentFlags() {
    return List.of(
        "-javaagent:" + Settings.builtFile("sluice.it.otelAgentJar"),
        "-Dotel.service.name=sluice-it",
        "-Dotel.traces.exporter=logging",
        "-Dotel.metrics.exporter=none",
        "-Dotel.logs.exporter=none");
  }

  /**
   * How many server spans carry all of {@code attributes} ({@code name=value} each), once at least
   * {@code expected} of them are printed or the wait is over; a count above {@code expected} is
   * returned as soon as it is seen, for the caller to fail on.
   */
  long count(long expected, String... attributes) throws InterruptedException {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (true) {
      long count = output.get().lines().filter(line -> matches(line, attributes)).count();
      if (count >= expected || System.nanoTime() > deadline) {
        return count;
      }
      Thread.sleep(100);
    }
  }

  private static boolean matches(String line, String... attributes) {
    if (!line.contains(EXPORTER) || !line.contains(" SERVER [tracer: ")) {
      return false;
    }
    for (String attribute : attributes) {
      // Attributes are printed as {a=1, b=2}: each one whole, not a prefix of a longer value.
      if (!Pattern.compile("[{ ]" + Pattern.quote(attribute) + "[,}]").matcher(line).find()) {
        return false;
      }
    }
    return true;
  }
}
