package dev.sluice.simulate;

/**
 * Reads the Common Log Format time {@code 10/Oct/2000:13:55:36 -0700} (what {@code %t} writes
 * between its brackets) as seconds since the epoch. A log holds many lines per second, so the text
 * of the last second parsed is kept and compared first: most lines cost one region compare.
 */
final class LogTime {
  /** What {@link #parse} answers for text that is no CLF time. */
  static final long INVALID = Long.MIN_VALUE;

  private static final int LENGTH = "10/Oct/2000:13:55:36 -0700".length();
  private static final String MONTHS = "JanFebMarAprMayJunJulAugSepOctNovDec";

  private String cachedText = "";
  private long cachedSeconds = INVALID;

  /** The seconds since the epoch of {@code line[start, end)}, or {@link #INVALID}. */
  long parse(String line, int start, int end) {
    if (end - start != LENGTH) {
      return INVALID;
    }
    if (line.regionMatches(start, cachedText, 0, LENGTH)) {
      return cachedSeconds;
    }
    long seconds = parseFresh(line, start);
    if (seconds != INVALID) {
      cachedText = line.substring(start, end);
      cachedSeconds = seconds;
    }
    return seconds;
  }

  private static long parseFresh(String s, int at) {
    int day = digits(s, at, 2);
    int monthAt = MONTHS.indexOf(s.substring(at + 3, at + 6));
    int year = digits(s, at + 7, 4);
    int hour = digits(s, at + 12, 2);
    int minute = digits(s, at + 15, 2);
    int second = digits(s, at + 18, 2);
    int offset = digits(s, at + 22, 4);
    char sign = s.charAt(at + 21);
    if (s.charAt(at + 2) != '/'
        || s.charAt(at + 6) != '/'
        || s.charAt(at + 11) != ':'
        || s.charAt(at + 14) != ':'
        || s.charAt(at + 17) != ':'
        || s.charAt(at + 20) != ' '
        || (sign != '+' && sign != '-')
        || monthAt < 0
        || monthAt % 3 != 0
        || (day | year | hour | minute | second | offset) < 0
        || day < 1
        || day > 31
        || hour > 23
        || minute > 59
        || second > 60
        || offset % 100 > 59) {
      return INVALID;
    }
    long offsetSeconds = (offset / 100 * 3600L + offset % 100 * 60L) * (sign == '-' ? -1 : 1);
    return daysFromCivil(year, monthAt / 3 + 1, day) * 86_400L
        + hour * 3600L
        + minute * 60L
        + second
        - offsetSeconds;
  }

  /** The value of {@code count} decimal digits at {@code at}, or -1 if any is no digit. */
  private static int digits(String s, int at, int count) {
    int value = 0;
    for (int i = at; i < at + count; i++) {
      int d = s.charAt(i) - '0';
      if (d < 0 || d > 9) {
        return -1;
      }
      value = value * 10 + d;
    }
    return value;
  }

  /**
   * Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm): no calendar
   * object per distinct second.
   */
  static long daysFromCivil(int year, int month, int day) {
    int y = month <= 2 ? year - 1 : year;
    int era = (y >= 0 ? y : y - 399) / 400;
    int yearOfEra = y - era * 400;
    int dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;
    int dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear;
    return era * 146_097L + dayOfEra - 719_468;
  }
}
