package dev.sluice.bench.agent;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.stream.Stream;

/**
 * The files the variants read, written into the run's directory: one rule on the measured path
 * that allows everything (a token bucket of 1,000,000,000 per second), the same rule on a path
 * nothing requests, the rule again with the Redis store, and a copy of the example web app whose
 * web.xml maps the Filter, reading the same file as the agent's memory variant.
 */
final class Configs {
  static final long LIMIT = 1_000_000_000L;

  final Path noMatch;
  final Path allow;
  final Path redis;
  final Path filterWebapp;

  private Configs(Path noMatch, Path allow, Path redis, Path filterWebapp) {
    this.noMatch = noMatch;
    this.allow = allow;
    this.redis = redis;
    this.filterWebapp = filterWebapp;
  }

  static Configs write(Path dir, Layout layout, String path, int redisPort) throws IOException {
    Path noMatch = yaml(dir.resolve("nomatch.yaml"), "memory", "", "/nothing/matches/this");
    Path allow = yaml(dir.resolve("allow.yaml"), "memory", "", path);
    Path redis =
        yaml(
            dir.resolve("redis.yaml"),
            "redis",
            "  redis:\n    url: redis://127.0.0.1:" + redisPort + "\n",
            path);
    Path webapp = dir.resolve("filter-webapp");
    copy(layout.webapp(), webapp);
    Path webXml = webapp.resolve("WEB-INF/web.xml");
    String xml = Files.readString(webXml, StandardCharsets.UTF_8);
    int at = xml.indexOf("  <servlet>");
    if (at < 0) {
      throw new IllegalStateException("no <servlet> element in " + webXml);
    }
    String filter =
        """
          <!-- Added by AgentLoad: the Filter, first, on every path, with the agent's rule. -->
          <filter>
            <filter-name>sluice</filter-name>
            <filter-class>dev.sluice.servlet.RateLimitFilter</filter-class>
            <init-param>
              <param-name>config</param-name>
              <param-value>%s</param-value>
            </init-param>
          </filter>
          <filter-mapping>
            <filter-name>sluice</filter-name>
            <url-pattern>/*</url-pattern>
          </filter-mapping>

        """
            .formatted(escape(allow.toString()));
    Files.writeString(
        webXml, xml.substring(0, at) + filter + xml.substring(at), StandardCharsets.UTF_8);
    return new Configs(noMatch, allow, redis, webapp);
  }

  /** The rule every limited variant applies, on {@code path}, with the given store. */
  private static Path yaml(Path file, String store, String storeExtra, String path)
      throws IOException {
    String text =
        """
        # Written by AgentLoad: one rule that never denies (a full bucket refilled at 10^9/s).
        store:
          type: %s
        %srules:
          - id: bench
            match: { path: %s }
            key: ip
            algorithm: token_bucket
            limit: %d
            window: 1s
            on_error: fail_closed   # a Redis failure shows up as a 429, not as a fast local allow
        """
            .formatted(store, storeExtra, path, LIMIT);
    Files.writeString(file, text, StandardCharsets.UTF_8);
    return file;
  }

  private static void copy(Path from, Path to) throws IOException {
    try (Stream<Path> files = Files.walk(from)) {
      for (Path f : (Iterable<Path>) files::iterator) {
        Path target = to.resolve(from.relativize(f).toString());
        if (Files.isDirectory(f)) {
          Files.createDirectories(target);
        } else {
          Files.copy(f, target, StandardCopyOption.REPLACE_EXISTING);
        }
      }
    }
  }

  private static String escape(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }
}
