package dev.sluice.simulate;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import org.junit.jupiter.api.Test;

class LogTimeTest {
  private static final DateTimeFormatter CLF =
      DateTimeFormatter.ofPattern("dd/MMM/yyyy:HH:mm:ss Z", Locale.US);

  private final LogTime time = new LogTime();

  private long parse(String text) {
    String line = "[" + text + "]";
    return time.parse(line, 1, line.length() - 1);
  }

  @Test
  void readsTheCommonLogFormatsExampleWithItsOffset() {
    assertThat(parse("10/Oct/2000:13:55:36 -0700")).isEqualTo(971_211_336L);
    assertThat(parse("10/Oct/2000:22:55:36 +0200")).isEqualTo(971_211_336L);
  }

  @Test
  void agreesWithJavaTimeAcrossMonthsLeapDaysAndOffsets() {
    String[] samples = {
      "01/Jan/1970:00:00:00 +0000",
      "29/Feb/2024:23:59:59 +0530",
      "01/Mar/2024:00:00:00 -1130",
      "31/Dec/2099:12:00:00 +1400",
      "15/Jun/2025:08:30:00 -0000",
    };
    for (String sample : samples) {
      long expected = OffsetDateTime.parse(sample, CLF).toEpochSecond();
      assertThat(parse(sample)).as(sample).isEqualTo(expected);
    }
  }

  @Test
  void theSameSecondAgainIsTakenFromTheCacheAndANewOneIsParsed() {
    assertThat(parse("10/Oct/2000:13:55:36 -0700")).isEqualTo(971_211_336L);
    assertThat(parse("10/Oct/2000:13:55:36 -0700")).isEqualTo(971_211_336L);
    assertThat(parse("10/Oct/2000:13:55:37 -0700")).isEqualTo(971_211_337L);
    assertThat(parse("10/Oct/2000:13:55:36 -0700")).isEqualTo(971_211_336L);
  }

  @Test
  void textThatIsNoTimeIsInvalidAndNotCached() {
    String[] bad = {
      "10/Oct/2000:13:55:36",
      "10/Okt/2000:13:55:36 -0700",
      "1O/Oct/2000:13:55:36 -0700",
      "10/Oct/2000:24:55:36 -0700",
      "10/Oct/2000 13:55:36 -0700",
      "10/Oct/2000:13:55:36 *0700",
      "00/Oct/2000:13:55:36 -0700",
      "10/Oct/2000:13:55:36 -0790",
      "10/ctN/2000:13:55:36 -0700",
    };
    for (String text : bad) {
      assertThat(parse(text)).as(text).isEqualTo(LogTime.INVALID);
    }
    assertThat(parse("10/Oct/2000:13:55:36 -0700")).isEqualTo(971_211_336L);
  }
}
