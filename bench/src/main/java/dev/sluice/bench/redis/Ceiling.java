package dev.sluice.bench.redis;

import dev.sluice.store.redis.PipelinerProbe;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What Redis itself does with Sluice's script: redis-benchmark sends the very EVALSHA the store
 * sends (same script, same arguments, same key shape), one per request or pipelined, from 64
 * connections. No JVM, no limiter, no queueing: the ceiling a Redis client could reach on this
 * machine.
 */
final class Ceiling {
  /** One redis-benchmark run; rate in requests (decisions) per second, latencies in ms. */
  record Row(int clients, int pipeline, int keys, double rps, double p50, double p99, double max) {
    static final String HEADER =
        "| keys | clients | pipeline | requests/s | p50 ms | p99 ms | max ms |\n"
            + "| ---: | ---: | ---: | ---: | ---: | ---: | ---: |";

    @Override
    public String toString() {
      return String.format(
          Locale.ROOT,
          "| %,d | %d | %d | %,.0f | %.3f | %.3f | %.3f |",
          keys,
          clients,
          pipeline,
          rps,
          p50,
          p99,
          max);
    }
  }

  private final String binary;
  private final LocalRedis redis;

  Ceiling(String binary, LocalRedis redis) {
    this.binary = binary;
    this.redis = redis;
  }

  /** The text of Sluice's acquire script, as the store builds it from its resources. */
  static String acquireScript() {
    return PipelinerProbe.acquireScript();
  }

  /**
   * ARGV of one acquire with {@link Contender}'s limit: Redis TIME, one call of one key with one
   * group of one request, a token bucket, cost 1.
   */
  static List<String> acquireArgs() {
    long emission = (Contender.WINDOW_MICROS + Contender.LIMIT - 1) / Contender.LIMIT;
    return List.of(
        "0",
        "1",
        "1",
        "1",
        "1",
        "t",
        Long.toString(Contender.LIMIT),
        Long.toString(Contender.WINDOW_MICROS),
        Long.toString(emission),
        Long.toString(Contender.LIMIT * emission),
        "1");
  }

  /**
   * Runs {@code requests} EVALSHA calls from {@code clients} connections, {@code pipeline} per
   * round trip, on one hot key or on {@code keys} keys ({@code -r} fills {@code __rand_int__}).
   */
  Row run(int clients, int pipeline, int keys, int requests) throws IOException {
    redis.flushAll();
    String sha = redis.admin().scriptLoad(acquireScript());
    // The shape of the store's keys (RedisKey), with the client number as the hash tag.
    String key = SluiceContender.PREFIX + "{" + (keys > 1 ? "__rand_int__" : "0") + "}apiTbkt";
    List<String> command =
        new ArrayList<>(
            List.of(
                binary,
                "-h",
                LocalRedis.HOST,
                "-p",
                Integer.toString(redis.port()),
                "-n",
                Integer.toString(requests),
                "-c",
                Integer.toString(clients),
                "-P",
                Integer.toString(pipeline),
                "--csv"));
    if (keys > 1) {
      command.addAll(List.of("-r", Integer.toString(keys)));
    }
    command.addAll(List.of("EVALSHA", sha, "1", key));
    command.addAll(acquireArgs());
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    try {
      if (process.waitFor() != 0) {
        throw new IllegalStateException("redis-benchmark failed:\n" + output);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
    return parse(output, clients, pipeline, keys);
  }

  /**
   * Reads the CSV line of the EVALSHA test: rps, avg, min, p50, p95, p99, max (ms). Fails on any
   * error reply, which would otherwise be timed as a fast success.
   */
  private static Row parse(String output, int clients, int pipeline, int keys) {
    if (output.contains("ERR") || output.contains("NOSCRIPT")) {
      throw new IllegalStateException("redis-benchmark got errors:\n" + output);
    }
    for (String line : output.split("\r?\n")) {
      if (line.startsWith("\"EVALSHA")) {
        String[] f = line.substring(line.indexOf("\",\"") + 3).replace("\"", "").split(",");
        return new Row(
            clients,
            pipeline,
            keys,
            Double.parseDouble(f[0]),
            Double.parseDouble(f[3]),
            Double.parseDouble(f[5]),
            Double.parseDouble(f[6]));
      }
    }
    throw new IllegalStateException("no result line in redis-benchmark's output:\n" + output);
  }
}
