package dev.sluice.store.redis;

import dev.sluice.store.RulesPublication;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.function.Supplier;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.Response;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisConnectionException;

/**
 * The versions of ratelimit.yaml published in Redis for a whole fleet: {@code push} and {@code
 * rollback} add one, JVMs whose file says {@code rules_from: redis} follow the current one.
 *
 * <p>Every key carries the hash tag {@code {<key_prefix>:rules}}, so all of them live on one Redis
 * Cluster slot and one script publishes atomically: {@code :seq} numbers the versions, {@code
 * :current} holds the current one's number, {@code :history} lists the numbers kept, newest first,
 * and {@code :v:<n>} is a hash of version n's content and where it came from. The tag starts with
 * the brace, not the prefix, so {@code SCAN MATCH <key_prefix>{*} still lists only counters.
 *
 * <p>A JVM reads {@code :current} every second, a few bytes, and the rules version recorded with
 * it, and the content only when either changed; this client has a connection of its own, never one
 * of the request path's pipelines.
 */
public final class PublishedRules implements RulesPublication {
  /** How many versions Redis keeps; older ones are deleted as new ones are published. */
  public static final int KEPT = 50;

  private static final Script PUBLISH = Script.of("publish.lua");

  /** The fields of a version's hash, in the order {@link PublishedVersion#of} takes them. */
  private static final byte[][] FIELDS =
      bytes("rules_version", "millis", "who", "where", "message", "rollback_of", "content");

  private final UnifiedJedis redis;
  private final String tag;
  private final String where;

  PublishedRules(UnifiedJedis redis, String keyPrefix, String server) {
    this.redis = redis;
    this.tag = "{" + keyPrefix + ":rules}";
    this.where = server + " " + tag;
  }

  /**
   * A client of its own for the Redis {@code settings} name, with one connection per node that
   * waits at most {@code timeoutMillis}. A Redis Cluster with no seed node reachable fails at once.
   */
  public static PublishedRules open(RedisSettings settings, String keyPrefix, int timeoutMillis) {
    return new PublishedRules(
        settings.withLimits(timeoutMillis, 1).connect(), keyPrefix, "redis " + settings);
  }

  /** The current version's number; 0 when none was ever published (or Redis lost them). */
  public long current() {
    String current = reading(() -> redis.get(tag + ":current"));
    if (current == null) {
      return 0;
    }
    try {
      return Long.parseLong(current);
    } catch (NumberFormatException e) {
      throw new IllegalStateException(
          tag + ":current holds \"" + current + "\", not the number of a version", e);
    }
  }

  /**
   * Version {@code number} with its content; null when Redis does not keep it (or its content). A
   * field larger than {@code maxBytes} is not read, and the version says so ({@link
   * PublishedVersion#refused}).
   */
  public PublishedVersion read(long number, int maxBytes) {
    PublishedVersion version = reading(() -> fields(number, FIELDS, maxBytes));
    return version == null || (version.content() == null && version.refused() == null)
        ? null
        : version;
  }

  /** The versions kept, newest first, without their content; fields as {@link #read} reads them. */
  public List<PublishedVersion> history(int maxBytes) {
    byte[][] fields = Arrays.copyOf(FIELDS, FIELDS.length - 1);
    List<PublishedVersion> versions = new ArrayList<>();
    for (String number : reading(() -> redis.lrange(tag + ":history", 0, -1))) {
      PublishedVersion version = fields(Long.parseLong(number), fields, maxBytes);
      if (version != null) {
        versions.add(version);
      }
    }
    return versions;
  }

  /**
   * The rules version Redis records with version {@code number} (a few bytes, written by {@code
   * publish}); empty when it records none: a poll compares it with the one read, so that a number
   * given again after a failover or a restart without persistence is read again.
   */
  public String rulesVersion(long number) {
    byte[] recorded = reading(() -> redis.hget(versionKey(number), FIELDS[0]));
    return recorded == null ? "" : new String(recorded, StandardCharsets.UTF_8);
  }

  /**
   * {@code fields} of version {@code number}, each only if Redis holds at most {@code maxBytes} of
   * it: one value of 500 MB, written by mistake or malice, must not be read by a whole fleet at
   * once. Their lengths are asked first, in one round trip.
   */
  private PublishedVersion fields(long number, byte[][] fields, int maxBytes) {
    byte[] key = versionKey(number);
    List<Response<Long>> lengths = new ArrayList<>();
    try (AbstractPipeline pipeline = redis.pipelined()) {
      for (byte[] field : fields) {
        lengths.add(pipeline.hstrlen(key, field));
      }
      pipeline.sync();
    }
    List<byte[]> small = new ArrayList<>();
    String refused = null;
    for (int i = 0; i < fields.length; i++) {
      long length = lengths.get(i).get();
      if (length <= maxBytes) {
        small.add(fields[i]);
      } else if (refused == null) {
        refused =
            "its "
                + new String(fields[i], StandardCharsets.UTF_8)
                + " is "
                + length
                + " bytes, more than the "
                + maxBytes
                + " Sluice reads";
      }
    }
    Iterator<byte[]> read =
        small.isEmpty()
            ? Collections.<byte[]>emptyIterator()
            : redis.hmget(key, small.toArray(new byte[0][])).iterator();
    List<byte[]> values = new ArrayList<>();
    for (int i = 0; i < fields.length; i++) {
      values.add(lengths.get(i).get() <= maxBytes ? read.next() : null);
    }
    return PublishedVersion.of(number, values, refused);
  }

  /**
   * Publishes {@code content} as the new current version, unless it is the current one's already.
   *
   * @param rollbackOf the version whose content this is again, or 0 for a push
   * @return the new version's number, or 0 when the content was current and nothing was published
   */
  public long publish(
      byte[] content,
      String rulesVersion,
      String who,
      String from,
      String message,
      long rollbackOf) {
    return publish(-1, content, rulesVersion, who, from, message, rollbackOf);
  }

  /**
   * Publishes {@code content} as {@link #publish} does, but only while version {@code basedOn} is
   * current (0: while none is published), checked in the same atomic step: a write based on what it
   * read never undoes another made since.
   *
   * @return the new version's number, 0 when the content was current, -1 when {@code basedOn} is
   *     not current and nothing was published
   */
  public long publishOver(
      long basedOn, byte[] content, String rulesVersion, String who, String from, String message) {
    return publish(basedOn, content, rulesVersion, who, from, message, 0);
  }

  private long publish(
      long basedOn,
      byte[] content,
      String rulesVersion,
      String who,
      String from,
      String message,
      long rollbackOf) {
    List<byte[]> keys = Arrays.asList(bytes(tag + ":seq", tag + ":current", tag + ":history"));
    List<byte[]> args = new ArrayList<>(Arrays.asList(bytes(tag + ":v:")));
    args.add(content);
    args.addAll(
        Arrays.asList(
            bytes(
                rulesVersion,
                who,
                from,
                message,
                Long.toString(rollbackOf),
                Integer.toString(KEPT),
                Long.toString(basedOn))));
    return (Long) PUBLISH.runBinary(redis, keys, args);
  }

  /**
   * {@code read}, once more on a new connection if its connection failed: a read changes nothing,
   * and a connection that Redis closed while it was idle (a restart, a failover) fails only when it
   * is used next. Publishing is never tried twice.
   */
  private static <T> T reading(Supplier<T> read) {
    try {
      return read.get();
    } catch (JedisConnectionException e) {
      return read.get();
    }
  }

  private byte[] versionKey(long number) {
    return (tag + ":v:" + number).getBytes(StandardCharsets.UTF_8);
  }

  private static byte[][] bytes(String... texts) {
    byte[][] bytes = new byte[texts.length][];
    for (int i = 0; i < texts.length; i++) {
      bytes[i] = texts[i].getBytes(StandardCharsets.UTF_8);
    }
    return bytes;
  }

  /** Where the versions are, for messages: {@code redis 10.0.0.5:6379 {rl:rules}}. */
  @Override
  public String toString() {
    return where;
  }

  @Override
  public void close() {
    redis.close();
    PoolEvictor.awaitEnding();
  }
}
