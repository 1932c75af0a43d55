package dev.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.store.OnError;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

class FieldsTest {
  private final Problems problems = new Problems("f.yaml");

  private Fields fields(String yaml) {
    return new Fields(new Yaml().compose(new StringReader(yaml)), "top", problems);
  }

  private List<String> reported() {
    List<String> out = new ArrayList<>();
    try {
      problems.throwIfAny();
    } catch (InvalidConfigException e) {
      for (ConfigError error : e.errors()) {
        out.add(error.line() + ":" + error.column() + " " + error.field() + ": " + error.message());
      }
    }
    return out;
  }

  @Test
  void absentFieldsReadAsNullAndEmptyOnesAreReported() {
    Fields f = fields("a: ~\nb:\nc: null\n");
    assertThat(f.string("a")).isNull();
    assertThat(f.positive("b")).isNull();
    assertThat(f.strings("c")).isNull();
    assertThat(f.bool("missing")).isNull();
    f.finish();
    assertThat(reported()).hasSize(3).allMatch(e -> e.contains(": has no value"));
  }

  @Test
  void wholeNumbersMayNotStartWithZero() {
    Fields f = fields("a: 010\nb: 10\n");
    assertThat(f.positive("a")).isNull();
    assertThat(f.positive("b")).isEqualTo(10);
    assertThat(reported()).hasSize(1);
  }

  @Test
  void readsEachKindOfValue() {
    Fields f =
        fields(
            """
            s: text
            n: 42
            b: false
            d: 500ms
            c: fail_closed
            l: [x, y]
            one: z
            m: { k: v }
            """);
    assertThat(f.string("s")).isEqualTo("text");
    assertThat(f.positive("n")).isEqualTo(42L);
    assertThat(f.bool("b")).isFalse();
    assertThat(f.duration("d")).isEqualTo(500_000L);
    assertThat(f.choice("c", OnError.class)).isEqualTo(OnError.FAIL_CLOSED);
    assertThat(f.strings("l")).containsExactly("x", "y");
    assertThat(f.strings("one")).containsExactly("z");
    assertThat(f.fields("m").string("k")).isEqualTo("v");
    f.finish();
    assertThat(reported()).isEmpty();
  }

  @Test
  void wrongTypesAreReportedWithLineColumnAndPathAndReadAsAbsent() {
    Fields f =
        fields(
            """
            s: [a]
            n: "5"
            b: maybe
            l: { a: b }
            m: 5
            i: [a, [b], c]
            """);
    assertThat(f.string("s")).isNull();
    assertThat(f.positive("n")).isNull();
    assertThat(f.bool("b")).isNull();
    assertThat(f.strings("l")).isEmpty();
    assertThat(f.fields("m").names()).isEmpty();
    assertThat(f.strings("i")).containsExactly("a", "c");
    assertThat(reported())
        .containsExactly(
            "1:4 top.s: must be a single value",
            "2:4 top.n: must be a whole number from 1 to 1000000000, got \"5\": remove the quotes,"
                + " which make it text",
            "3:4 top.b: must be true or false",
            "4:4 top.l: must be a single value or a list of values",
            "5:4 top.m: must be a mapping of fields",
            "6:8 top.i[1]: must be a single value");
  }

  @Test
  void valuesKeepTheirOwnPlaces() {
    List<Fields.Value> values = fields("l:\n  - a\n  - b\n").values("l");
    assertThat(values).extracting(v -> v.text).containsExactly("a", "b");
    assertThat(values).extracting(v -> v.path).containsExactly("top.l[0]", "top.l[1]");
    assertThat(values).extracting(v -> v.node.getStartMark().getLine()).containsExactly(1, 2);
  }

  @Test
  void unknownFieldsAreReportedAtTheirNamesWithTheKnownOnes() {
    Fields f = fields("known: 1\ntypo:\n  - deep\n");
    f.positive("known");
    f.finish("known", "other");
    assertThat(reported())
        .containsExactly("2:1 top.typo: unknown field (known here: known, other)");
  }

  @Test
  void aFieldTakenIsNotUnknown() {
    Fields f = fields("a: 1\nb: 2\n");
    assertThat(f.names()).containsExactly("a", "b");
    f.take("a");
    assertThat(f.names()).containsExactly("b");
  }

  @Test
  void duplicateFieldIsReportedAndTheFirstKept() {
    Fields f = fields("a: 1\nb: 2\na: 3\n");
    assertThat(f.positive("a")).isEqualTo(1L);
    assertThat(reported()).containsExactly("3:1 top.a: appears twice");
  }

  @Test
  void fieldNamesMustBeScalars() {
    fields("? [a, b]\n: 1\n");
    assertThat(reported()).containsExactly("1:3 top: field names must be plain words");
  }

  @Test
  void aNonMappingHasNoFields() {
    Fields f = fields("- a\n");
    assertThat(f.isMapping()).isFalse();
    assertThat(f.string("a")).isNull();
    assertThat(reported()).containsExactly("1:1 top: must be a mapping of fields");
  }

  @Test
  void whereIsTheValueOnceReadElseTheMapping() {
    Fields f = fields("a: 1\nb: 2\n");
    assertThat(f.where("b")).isSameAs(f.node());
    f.positive("b");
    assertThat(f.where("b").getStartMark().getLine()).isEqualTo(1);
    assertThat(f.pathOf("b")).isEqualTo("top.b");
  }

  @Test
  void topLevelPathsHaveNoPrefix() {
    Fields f = new Fields(new Yaml().compose(new StringReader("a: 1\n")), "", problems);
    assertThat(f.pathOf("a")).isEqualTo("a");
  }

  @Test
  void durationAndChoiceErrorsQuoteTheValue() {
    Fields f = fields("d: 5x\nc: FAIL_OPEN\n");
    assertThat(f.duration("d")).isNull();
    assertThat(f.choice("c", OnError.class)).isNull();
    assertThat(reported())
        .containsExactly(
            "1:4 top.d: must be a duration from 1ms to 365d such as 500ms, 1s, 1m, 1h or 1d,"
                + " got \"5x\"",
            "2:4 top.c: must be one of fail_open, fail_closed, got \"FAIL_OPEN\"");
  }
}
