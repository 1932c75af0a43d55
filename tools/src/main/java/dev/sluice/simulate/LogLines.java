package dev.sluice.simulate;

import java.io.IOException;
import java.io.Reader;

/**
 * A log's lines, ended as {@link java.io.BufferedReader#readLine} ends them (at {@code \n}, {@code
 * \r} or {@code \r\n}), each kept only up to {@link #MAX_CHARS}: a longer line is passed over
 * unkept, so a gzip of gigabytes of zeros, one line, costs no more memory than any log.
 */
final class LogLines {
  /**
   * The longest line read. Servers refuse a request line or a header of more than a few KiB, so an
   * access log line is far shorter.
   */
  static final int MAX_CHARS = 1 << 16;

  /** Why a line longer than {@link #MAX_CHARS} is skipped. */
  static final String TOO_LONG =
      "longer than " + MAX_CHARS + " characters, the most read of a line";

  /** Large reads: a replay is bound by how fast the log streams in. */
  private static final int BUFFER_CHARS = 1 << 20;

  private final Reader in;
  private final char[] buffer = new char[BUFFER_CHARS];

  /** The unread characters are {@code buffer[start, end)}. */
  private int start;

  private int end;

  /** Whether the last line ended at {@code \r}: a {@code \n} right after it ends it too. */
  private boolean afterReturn;

  private boolean tooLong;

  LogLines(Reader in) {
    this.in = in;
  }

  /**
   * The next line, without its end; null after the last. A line longer than {@link #MAX_CHARS}
   * comes back empty, and {@link #tooLong} is then true.
   */
  String next() throws IOException {
    tooLong = false;
    if (afterReturn) {
      afterReturn = false;
      if ((start < end || fill()) && buffer[start] == '\n') {
        start++;
      }
    }
    for (int scan = start; ; ) {
      for (int i = scan; i < end; i++) {
        if (buffer[i] == '\n' || buffer[i] == '\r') {
          tooLong = i - start > MAX_CHARS;
          String line = tooLong ? "" : new String(buffer, start, i - start);
          consume(i);
          return line;
        }
      }
      if (end - start > MAX_CHARS) {
        return passOver();
      }
      int kept = end - start;
      if (!fill()) {
        String last = kept == 0 ? null : new String(buffer, start, kept);
        start = end;
        return last;
      }
      scan = start + kept;
    }
  }

  /** Whether the line {@link #next} returned last was too long to be read. */
  boolean tooLong() {
    return tooLong;
  }

  /** Drops the rest of a line too long, up to and with its end. */
  private String passOver() throws IOException {
    tooLong = true;
    do {
      for (int i = start; i < end; i++) {
        if (buffer[i] == '\n' || buffer[i] == '\r') {
          consume(i);
          return "";
        }
      }
      start = end;
    } while (fill());
    return "";
  }

  /** Consumes the line ending at {@code buffer[at]}. */
  private void consume(int at) {
    afterReturn = buffer[at] == '\r';
    start = at + 1;
  }

  /** Moves the unread characters to the buffer's start and reads more; false at the log's end. */
  private boolean fill() throws IOException {
    System.arraycopy(buffer, start, buffer, 0, end - start);
    end -= start;
    start = 0;
    int read = in.read(buffer, end, buffer.length - end);
    if (read <= 0) {
      return false;
    }
    end += read;
    return true;
  }
}
