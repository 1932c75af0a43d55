package dev.sluice.support;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;

/** Reading a stream whole, but never more than a bound: a file can grow, and a body can lie. */
public final class Bounded {
  private Bounded() {}

  /** All of {@code in}; null once more than {@code maxBytes} came (the rest is not read). */
  public static byte[] read(InputStream in, int maxBytes) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] buffer = new byte[8192];
    for (int n; (n = in.read(buffer)) > 0; ) {
      out.write(buffer, 0, n);
      if (out.size() > maxBytes) {
        return null;
      }
    }
    return out.toByteArray();
  }
}
