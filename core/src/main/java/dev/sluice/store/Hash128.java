package dev.sluice.store;

/**
 * MurmurHash3 (x64, 128-bit) of a string's UTF-16 code units. The memory store keeps identities as
 * these 128 bits instead of strings, with a per-store random seed: no object per key and one cache
 * miss per lookup instead of four. The Redis store names its keys from them with a fixed seed, so
 * every JVM of a fleet names a key alike. Two identities that collided would merely share a count,
 * which only ever limits more. Public only for the Redis store; not an API.
 */
public final class Hash128 {
  private static final long C1 = 0x87c37b91114253d5L;
  private static final long C2 = 0x4cf5ad432745937fL;

  private final long seed;
  long hi;
  long lo;

  public Hash128(long seed) {
    this.seed = seed;
  }

  /** Hashes {@code s} into {@link #hi} and {@link #lo}; lo is never even, so (0, 0) means empty. */
  public Hash128 of(String s) {
    long h1 = seed;
    long h2 = seed;
    int n = s.length();
    int i = 0;
    for (; i + 8 <= n; i += 8) {
      h1 ^= mixK1(chars(s, i));
      h1 = (Long.rotateLeft(h1, 27) + h2) * 5 + 0x52dce729;
      h2 ^= mixK2(chars(s, i + 4));
      h2 = (Long.rotateLeft(h2, 31) + h1) * 5 + 0x38495ab5;
    }
    long k1 = 0;
    long k2 = 0;
    for (int j = n - 1; j >= i; j--) {
      if (j - i >= 4) {
        k2 = k2 << 16 | s.charAt(j);
      } else {
        k1 = k1 << 16 | s.charAt(j);
      }
    }
    h1 ^= mixK1(k1);
    h2 ^= mixK2(k2);
    h1 ^= 2L * n;
    h2 ^= 2L * n;
    h1 += h2;
    h2 += h1;
    h1 = fmix(h1);
    h2 = fmix(h2);
    h1 += h2;
    h2 += h1;
    hi = h1;
    lo = h2 | 1;
    return this;
  }

  public long hi() {
    return hi;
  }

  /** The low 64 bits, whose lowest bit is always set. */
  public long lo() {
    return lo;
  }

  private static long chars(String s, int i) {
    return s.charAt(i)
        | (long) s.charAt(i + 1) << 16
        | (long) s.charAt(i + 2) << 32
        | (long) s.charAt(i + 3) << 48;
  }

  private static long mixK1(long k) {
    return Long.rotateLeft(k * C1, 31) * C2;
  }

  private static long mixK2(long k) {
    return Long.rotateLeft(k * C2, 33) * C1;
  }

  /** Murmur's finalizer: a bijection that spreads every input bit over the whole word. */
  public static long fmix(long k) {
    k ^= k >>> 33;
    k *= 0xff51afd7ed558ccdL;
    k ^= k >>> 33;
    k *= 0xc4ceb9fe1a85ec53L;
    k ^= k >>> 33;
    return k;
  }
}
