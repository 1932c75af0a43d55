package dev.sluice.store.redis;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisNoScriptException;

/**
 * A Lua script made of {@code .lua} resources, run by its SHA-1. A server that does not know it
 * (restarted, failed over, a new cluster node) answers NOSCRIPT; the script is then run by its text
 * once, which also caches it there. Nothing else is ever retried but a pipelined call that Redis
 * Cluster redirected before running it ({@link Redirects}): a command that timed out or lost its
 * connection may already have counted.
 */
final class Script {
  static final Script ACQUIRE = withAlgorithms("acquire.lua");
  static final Script REFUND = withAlgorithms("refund.lua");
  static final Script PEEK = withAlgorithms("peek.lua");
  static final Script LEASE = withAlgorithms("lease.lua");
  static final Script HEARTBEAT = of("time.lua", "heartbeat.lua");

  private final String text;
  private final String sha1;

  private Script(String text) {
    this.text = text;
    this.sha1 = sha1(text);
  }

  private static Script withAlgorithms(String main) {
    return of(
        "time.lua",
        "state.lua",
        "fixed_window.lua",
        "sliding_window.lua",
        "token_bucket.lua",
        main);
  }

  /** The resources of this package, concatenated in order. */
  static Script of(String... resources) {
    StringBuilder text = new StringBuilder();
    for (String resource : resources) {
      text.append(read(resource)).append('\n');
    }
    return new Script(text.toString());
  }

  Object run(UnifiedJedis redis, List<String> keys, List<String> args) {
    try {
      return redis.evalsha(sha1, keys, args);
    } catch (JedisNoScriptException e) {
      return redis.eval(text, keys, args);
    }
  }

  /** {@link #run} with binary keys and arguments: content that must reach Redis byte for byte. */
  Object runBinary(UnifiedJedis redis, List<byte[]> keys, List<byte[]> args) {
    try {
      return redis.evalsha(sha1.getBytes(StandardCharsets.UTF_8), keys, args);
    } catch (JedisNoScriptException e) {
      return redis.eval(text.getBytes(StandardCharsets.UTF_8), keys, args);
    }
  }

  String text() {
    return text;
  }

  String sha1() {
    return sha1;
  }

  private static String read(String resource) {
    try (InputStream in = Script.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException("missing script resource " + resource);
      }
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      byte[] buffer = new byte[4096];
      for (int n; (n = in.read(buffer)) > 0; ) {
        out.write(buffer, 0, n);
      }
      return new String(out.toByteArray(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String sha1(String text) {
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-1").digest(text.getBytes(StandardCharsets.UTF_8));
      StringBuilder hex = new StringBuilder(40);
      for (byte b : digest) {
        hex.append(Character.forDigit(b >> 4 & 15, 16)).append(Character.forDigit(b & 15, 16));
      }
      return hex.toString();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM has SHA-1", e);
    }
  }
}
