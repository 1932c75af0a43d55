package dev.sluice.simulate;

import java.io.BufferedReader;
import java.io.IOException;
import java.util.Arrays;
import java.util.Collections;

/**
 * Which of the named formats a log is in, from its first lines, for a {@code simulate} run without
 * {@code --format}: Apache's and nginx's logs are mostly {@code combined}, Tomcat's {@code
 * AccessLogValve} writes {@code common} unless told otherwise, and neither audience should have to
 * know which before a first replay. Only the start of the log is looked at, at most {@link
 * #SAMPLE_CHARS} characters, so a log of one endless line cannot make the guess read it all.
 */
final class FormatGuess {
  static final int SAMPLE_CHARS = 64 * 1024;
  private static final int SAMPLE_LINES = 20;

  /** Tried in this order: a line that fits combined fits common too, with less in it. */
  private static final String[] NAMES = {"combined", "common"};

  private FormatGuess() {}

  /**
   * The format that most of the log's first lines fit (the first in {@link #NAMES} on a tie), read
   * without consuming them; {@code combined} when none fits any (the replay then says why).
   */
  static AccessLogFormat of(BufferedReader log) throws IOException {
    String[] lines = firstLines(log);
    String best = NAMES[0];
    int mostFitting = 0;
    for (String name : NAMES) {
      AccessLogFormat format = AccessLogFormat.of(name);
      LoggedRequest request = format.newRequest(Collections.<String>emptySet());
      int fitting = 0;
      for (String line : lines) {
        fitting += format.parse(line, request) == null ? 1 : 0;
      }
      if (fitting > mostFitting) {
        best = name;
        mostFitting = fitting;
      }
    }
    return AccessLogFormat.detected(best);
  }

  /** The first whole lines within the sample, the reader left where it was. */
  private static String[] firstLines(BufferedReader log) throws IOException {
    char[] sample = new char[SAMPLE_CHARS];
    log.mark(SAMPLE_CHARS);
    int read = 0;
    for (int n; read < sample.length && (n = log.read(sample, read, sample.length - read)) > 0; ) {
      read += n;
    }
    log.reset();
    String text = new String(sample, 0, read);
    int end = read < sample.length ? text.length() : text.lastIndexOf('\n');
    String[] lines = end <= 0 ? new String[0] : text.substring(0, end).split("\r?\n");
    return lines.length <= SAMPLE_LINES ? lines : Arrays.copyOf(lines, SAMPLE_LINES);
  }
}
