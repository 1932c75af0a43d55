package dev.sluice.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.http.StructuredFieldParser.Member;
import dev.sluice.http.StructuredFieldParser.Token;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The parser the header tests rely on must itself follow RFC 9651. */
class StructuredFieldParserTest {
  @Test
  void parsesTheDraftsExamples() {
    List<Member> policies =
        StructuredFieldParser.list("\"burst\";q=100;w=60,\"daily\";q=1000;w=86400");
    assertThat(policies)
        .containsExactly(
            new Member("burst", Map.of("q", 100L, "w", 60L)),
            new Member("daily", Map.of("q", 1000L, "w", 86400L)));
    assertThat(StructuredFieldParser.list("\"default\";r=999;pk=:dHJpYWwxMjEzMjM=:"))
        .singleElement()
        .satisfies(
            m -> assertThat((byte[]) m.parameters().get("pk")).asString().isEqualTo("trial121323"));
  }

  @Test
  void parsesEveryKindOfBareItem() {
    List<Member> members =
        StructuredFieldParser.list(
            "a;x, \"q\\\"\\\\\", -12, 1.5, ?1, @1659578233, %\"f%c3%bc\", (1 b);y=?0");
    assertThat(members.get(0)).isEqualTo(new Member(new Token("a"), Map.of("x", true)));
    assertThat(members.get(1).value()).isEqualTo("q\"\\");
    assertThat(members.get(2).value()).isEqualTo(-12L);
    assertThat(members.get(3).value()).isEqualTo(new BigDecimal("1.5"));
    assertThat(members.get(4).value()).isEqualTo(true);
    assertThat(members.get(5).value()).isEqualTo(new StructuredFieldParser.Date(1659578233));
    assertThat(members.get(6).value()).isEqualTo(new StructuredFieldParser.DisplayString("fü"));
    assertThat(members.get(7).value())
        .isEqualTo(List.of(new Member(1L, Map.of()), new Member(new Token("b"), Map.of())));
    assertThat(members.get(7).parameters()).isEqualTo(Map.of("y", false));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "\"a\",", // trailing comma
        "\"a\" \"b\"", // no comma
        "\"a", // unterminated
        "\"a\\b\"", // bad escape
        "\"é\"", // not ASCII
        "a;Q=1", // upper-case key
        "a;q=1000000000000000", // 16 digits
        "1.2345", // 4 fractional digits
        "1.", // no fractional digit
        "\"a\";q=", // no value
        "?2",
        "(1 2", // unterminated inner list
        "@1.5", // a date is an integer
        "%\"%C3%BC\"" // upper-case hex
      })
  void refusesWhatTheRfcRefuses(String field) {
    assertThatThrownBy(() -> StructuredFieldParser.list(field))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
