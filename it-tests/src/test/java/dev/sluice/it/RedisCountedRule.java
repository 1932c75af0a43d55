package dev.sluice.it;

/**
 * Rules for an app that bundles the Filter: one rule per client IP, 3 per hour, counted in Redis.
 * fail_closed, so a store that cannot work shows as 429s; a wide timeout, so a cold JVM's first
 * call (connecting, loading the scripts) on a busy machine is not taken for one that failed.
 */
final class RedisCountedRule {
  private static final String YAML =
      """
      client_ip:
        trusted_proxies: [127.0.0.1/32, "::1/128"]
      store:
        type: redis
        key_prefix: %s
        redis:
          url: %s
          timeout: 2s
      rules:
        - { id: %s, match: { path: "%s" }, key: ip, limit: 3, window: 1h,
            algorithm: token_bucket, on_error: fail_closed }
      """;

  private RedisCountedRule() {}

  /** The rule {@code id} on {@code path}, its keys named under {@code prefix} on {@code uri}. */
  static String yaml(String prefix, String uri, String id, String path) {
    return String.format(YAML, prefix, uri, id, path);
  }
}
