package dev.sluice.it.redis;

import java.nio.charset.StandardCharsets;

/** The cluster hash slot of a key, as Redis computes it: CRC16 (XMODEM) mod 16384. */
public final class KeySlot {
  public static final int SLOTS = 16384;

  private KeySlot() {}

  /**
   * The slot of {@code key}. With a hash tag, only the part between the first '{' and the first '}'
   * after it is hashed, if that part is not empty: {@code {user:1}:a} and {@code {user:1}:b} share
   * a slot.
   */
  public static int of(String key) {
    byte[] bytes = key.getBytes(StandardCharsets.UTF_8);
    int start = indexOf(bytes, '{', 0);
    if (start >= 0) {
      int end = indexOf(bytes, '}', start + 1);
      if (end > start + 1) {
        return crc16(bytes, start + 1, end) % SLOTS;
      }
    }
    return crc16(bytes, 0, bytes.length) % SLOTS;
  }

  private static int indexOf(byte[] bytes, char c, int from) {
    for (int i = from; i < bytes.length; i++) {
      if (bytes[i] == c) {
        return i;
      }
    }
    return -1;
  }

  private static int crc16(byte[] bytes, int from, int to) {
    int crc = 0;
    for (int i = from; i < to; i++) {
      crc ^= (bytes[i] & 0xff) << 8;
      for (int bit = 0; bit < 8; bit++) {
        crc = (crc & 0x8000) != 0 ? (crc << 1) ^ 0x1021 : crc << 1;
      }
    }
    return crc & 0xffff;
  }
}
