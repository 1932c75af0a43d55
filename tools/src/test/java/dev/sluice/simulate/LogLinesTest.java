package dev.sluice.simulate;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Lines end as BufferedReader.readLine ends them, and none is kept beyond its cap. */
class LogLinesTest {
  /** Each line read, "(too long)" for one passed over. */
  private static List<String> lines(String text) throws IOException {
    LogLines lines = new LogLines(new StringReader(text));
    List<String> read = new ArrayList<>();
    for (String line = lines.next(); line != null; line = lines.next()) {
      read.add(lines.tooLong() ? "(too long)" : line);
    }
    return read;
  }

  @Test
  void linesEndAtNewlineReturnOrBothAndTheLastNeedsNoEnd() throws IOException {
    assertThat(lines("a\nb\r\nc\rd\n\ne")).containsExactly("a", "b", "c", "d", "", "e");
    assertThat(lines("a\r\n")).containsExactly("a");
    assertThat(lines("")).isEmpty();
  }

  @Test
  void aLineOfTheMostCharactersIsReadAndOneMoreIsPassedOver() throws IOException {
    String most = "y".repeat(LogLines.MAX_CHARS);
    assertThat(lines(most + "\n" + most + "z\r\nafter\n" + most + "zz"))
        .containsExactly(most, "(too long)", "after", "(too long)");
  }
}
