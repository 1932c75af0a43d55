package dev.sluice.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class StructuredFieldsTest {
  @Test
  void aStringIsQuotedWithItsQuotesAndBackslashesEscaped() {
    String tricky = "a \"b\" \\c";
    StringBuilder field = StructuredFields.string(new StringBuilder(), tricky);
    StructuredFields.parameter(field, "q", StructuredFields.MAX_INTEGER);
    assertThat(StructuredFieldParser.list(field.toString()))
        .containsExactly(
            new StructuredFieldParser.Member(tricky, Map.of("q", StructuredFields.MAX_INTEGER)));
  }

  @Test
  void whatNoParserWouldAcceptIsNeverWritten() {
    assertThatThrownBy(() -> StructuredFields.string(new StringBuilder(), "line\nbreak"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> StructuredFields.string(new StringBuilder(), "é"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> StructuredFields.parameter(new StringBuilder(), "r", -1))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(
            () ->
                StructuredFields.parameter(
                    new StringBuilder(), "t", StructuredFields.MAX_INTEGER + 1))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
