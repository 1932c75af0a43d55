package dev.sluice.store.redis;

import dev.sluice.algo.Algorithm;
import dev.sluice.store.Hash128;

/**
 * Names the Redis key of a rule's counter for one identity: {@code <prefix>{<tag>}<rest>}, twelve
 * characters after the prefix, all base64url.
 *
 * <p>Why hashed and so short. Redis stores a key of up to 14 bytes and an integer value in 16-byte
 * allocations, which brings a counter with its TTL to about 117 bytes; a readable key such as
 * {@code rl:{ip=203.0.113.7}:login:f900000} costs 160. The tag (3 characters, 18 bits of the
 * identity's hash) is the Redis Cluster hash tag: every rule of one identity lands on one slot and
 * is checked in one script call. The rest (7 characters, 42 bits) mixes the identity's hash with
 * the rule, its algorithm and its window, so a rule whose counting changes starts on fresh keys.
 * Two live keys of one rule share a name with odds of about n² / 2^61 for n identities (4 in
 * 100,000 at ten million): they would share a count, which only ever limits more. Braces in an
 * identity cannot reach the name at all.
 */
public final class RedisKey {
  /**
   * Every JVM of a fleet must name a key alike, so the seed is fixed, unlike the memory store's.
   */
  private static final long SEED = 0x5175_1ce0_5175_1ce0L;

  private static final char[] BASE64URL =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".toCharArray();

  private RedisKey() {}

  /**
   * The key of {@code identity} (as the rule's key template made it, e.g. {@code ip=203.0.113.7})
   * under the rule {@code ruleId} with this algorithm and window, for the key prefix {@code
   * prefix}.
   */
  public static String of(
      String prefix, String identity, String ruleId, Algorithm algorithm, long windowMicros) {
    return of(prefix, hash(identity), ruleSalt(ruleId, algorithm, windowMicros));
  }

  /** What a rule adds to its keys: a hash of its id, algorithm and window. */
  static long ruleSalt(String ruleId, Algorithm algorithm, long windowMicros) {
    return new Hash128(SEED)
        .of(ruleId + '\n' + RedisCounters.codeOf(algorithm) + windowMicros)
        .hi();
  }

  /** The hash keys are named from: one per identity serves every rule of it. */
  static Hash128 hash(String identity) {
    return new Hash128(SEED).of(identity);
  }

  static String of(String prefix, Hash128 hash, long ruleSalt) {
    long rest = Hash128.fmix(hash.lo() ^ ruleSalt);
    int at = prefix.length();
    char[] name = new char[at + 12];
    prefix.getChars(0, at, name, 0);
    name[at] = '{';
    put(name, at + 1, hash.hi(), 3);
    name[at + 4] = '}';
    put(name, at + 5, rest, 7);
    return new String(name);
  }

  /** Writes the top {@code count} six-bit groups of {@code bits} as base64url characters. */
  private static void put(char[] name, int at, long bits, int count) {
    for (int i = 0; i < count; i++) {
      name[at + i] = BASE64URL[(int) (bits >>> (58 - 6 * i)) & 63];
    }
  }
}
