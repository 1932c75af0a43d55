package dev.sluice.config;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Durations as ratelimit.yaml writes them: {@code 500ms}, {@code 1s}, {@code 1m}, {@code 1h},
 * {@code 1d}.
 */
final class Durations {
  static final long MAX_MICROS = 365L * 86_400_000_000L;
  private static final Pattern FORMAT = Pattern.compile("(\\d{1,9})(ms|s|m|h|d)");
  private static final String[] LARGE_UNITS = {"d", "h", "m", "s"};

  private Durations() {}

  /** Returns microseconds, or -1 if {@code text} is not a duration between 1ms and 365d. */
  static long parseMicros(String text) {
    Matcher m = FORMAT.matcher(text.trim());
    if (!m.matches()) {
      return -1;
    }
    long count = Long.parseLong(m.group(1));
    long unit = unitMicros(m.group(2));
    if (count > MAX_MICROS / unit) {
      return -1; // also keeps count × unit from overflowing into a plausible value
    }
    long micros = count * unit;
    return micros >= 1000 ? micros : -1;
  }

  /** {@code micros} as the file writes it, in the largest unit that divides it: 90s, 1m, 500ms. */
  static String format(long micros) {
    for (String unit : LARGE_UNITS) {
      long unitMicros = unitMicros(unit);
      if (micros % unitMicros == 0) {
        return micros / unitMicros + unit;
      }
    }
    return micros / 1_000 + "ms"; // a duration of the file is whole milliseconds
  }

  private static long unitMicros(String unit) {
    switch (unit) {
      case "ms":
        return 1_000L;
      case "s":
        return 1_000_000L;
      case "m":
        return 60_000_000L;
      case "h":
        return 3_600_000_000L;
      default:
        return 86_400_000_000L;
    }
  }
}
