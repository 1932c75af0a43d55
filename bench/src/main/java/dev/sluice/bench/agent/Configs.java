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
 * nothing requests, the rule again with the Redis store, decided exactly and local-first, and a
 * copy of the example web app whose web.xml maps the Filter, reading the same file as the agent's
 * memory variant.
 */
final class Configs {
  static final long LIMIT = 1_000_000_000L;

  final Path noMatch;
  final Path allow;
  final Path redis;
  final Path redisLocalFirst;
  final Path filterWebapp;

  /**
   * With more than one client: wrk's scripts that send each request as one of them and count the
   * answers that lack the expected headers, for limited and unlimited variants; null otherwise.
   */
  final Path limitedScript;

  final Path unlimitedScript;

  private Configs(
      Path noMatch,
      Path allow,
      Path redis,
      Path redisLocalFirst,
      Path filterWebapp,
      Path limitedScript,
      Path unlimitedScript) {
    this.noMatch = noMatch;
    this.allow = allow;
    this.redis = redis;
    this.redisLocalFirst = redisLocalFirst;
    this.filterWebapp = filterWebapp;
    this.limitedScript = limitedScript;
    this.unlimitedScript = unlimitedScript;
  }

  /**
   * @param clients how many identities the requests come from: 1 is every request from 127.0.0.1
   *     (the rule keys on {@code ip}); more, a header {@code X-Client} naming one of them at random
   *     (the rule keys on {@code header:X-Client | ip}, so a request without it, as the readiness
   *     check sends, still is limited)
   * @param sync the local-first variant's {@code sync}, as the YAML says it (issue 29)
   */
  static Configs write(
      Path dir, Layout layout, String path, int redisPort, int clients, String sync)
      throws IOException {
    String key = clients > 1 ? "\"header:X-Client | ip\"" : "ip";
    Path noMatch =
        yaml(dir.resolve("nomatch.yaml"), "memory", "", "/nothing/matches/this", key, "");
    Path allow = yaml(dir.resolve("allow.yaml"), "memory", "", path, key, "");
    String redisStore = "  redis:\n    url: redis://127.0.0.1:" + redisPort + "\n";
    Path redis = yaml(dir.resolve("redis.yaml"), "redis", redisStore, path, key, "");
    Path redisLocalFirst =
        yaml(
            dir.resolve("redis-local-first.yaml"),
            "redis",
            redisStore,
            path,
            key,
            "consistency: local_first\nsync: " + sync);
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
    return clients > 1
        ? new Configs(
            noMatch,
            allow,
            redis,
            redisLocalFirst,
            webapp,
            wrkScript(dir.resolve("clients-limited.lua"), clients, true),
            wrkScript(dir.resolve("clients-unlimited.lua"), clients, false))
        : new Configs(noMatch, allow, redis, redisLocalFirst, webapp, null, null);
  }

  /** The wrk script of {@code variant}, or null when every request comes from one client. */
  Path wrkScript(Variant variant) {
    return variant.limited ? limitedScript : unlimitedScript;
  }

  /**
   * A wrk script: each request from one of {@code clients} at random, and a count of the answers
   * answered 200 without X-RateLimit-Limit as expected (Wrk counts the other statuses), which
   * {@link Wrk} reads from its end.
   */
  private static Path wrkScript(Path file, int clients, boolean limited) throws IOException {
    String text =
        """
        -- Written by AgentLoad: requests from %d clients, and the 200s without the expected headers.
        local clients = %d
        local expected = %s
        local threads = {}
        local counter = 0
        wrong = 0

        function setup(thread)
          counter = counter + 1
          thread:set("id", counter)
          table.insert(threads, thread)
        end

        function init(args)
          math.randomseed(id * 7919 + os.time())
        end

        function request()
          return wrk.format(nil, nil, { ["X-Client"] = "c" .. math.random(clients) })
        end

        function response(status, headers, body)
          if status == 200 and headers["X-RateLimit-Limit"] ~= expected then
            wrong = wrong + 1
          end
        end

        function done(summary, latency, requests)
          local n = 0
          for _, t in ipairs(threads) do
            n = n + t:get("wrong")
          end
          io.write("Wrong answers: " .. n .. "\\n")
        end
        """
            .formatted(clients, clients, limited ? "\"" + LIMIT + "\"" : "nil");
    Files.writeString(file, text, StandardCharsets.UTF_8);
    return file;
  }

  /**
   * The rule every limited variant applies, on {@code path}, with the given store; {@code
   * ruleExtra}, lines of further rule fields (none when empty).
   */
  private static Path yaml(
      Path file, String store, String storeExtra, String path, String key, String ruleExtra)
      throws IOException {
    String text =
        """
        # Written by AgentLoad: one rule that never denies (a full bucket refilled at 10^9/s).
        store:
          type: %s
        %srules:
          - id: bench
            match: { path: %s }
            key: %s
            algorithm: token_bucket
            limit: %d
            window: 1s
            on_error: fail_closed   # a Redis failure shows up as a 429, not as a fast local allow
        %s"""
            .formatted(
                store,
                storeExtra,
                path,
                key,
                LIMIT,
                ruleExtra.isEmpty() ? "" : ruleExtra.indent(4));
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
