package dev.sluice.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class PublishedVersionTest {
  /** The fields as Redis returns them, in PublishedRules' order; null for a field it lacks. */
  private static List<byte[]> fields(String... values) {
    byte[][] bytes = new byte[values.length][];
    for (int i = 0; i < values.length; i++) {
      bytes[i] = values[i] == null ? null : values[i].getBytes(StandardCharsets.UTF_8);
    }
    return Arrays.asList(bytes);
  }

  /** A version whose every field was read. */
  private static PublishedVersion read(long number, List<byte[]> fields) {
    return PublishedVersion.of(number, fields, null);
  }

  @Test
  void aVersionWithAFieldNotReadSaysWhyFirst() {
    String why = "its message is 2000000 bytes, more than the 1048576 Sluice reads";
    PublishedVersion v =
        PublishedVersion.of(9, fields("ab12", "0", "bob", "ci", null, "3", "rules: []"), why);
    assertThat(v.refused()).isEqualTo(why);
    assertThat(v.note()).isEqualTo("not read: " + why + "; rollback to version 3");
    assertThat(PublishedVersion.of(9, fields(null, null, null, null, null, null, null), why))
        .as("a version of one field, too large")
        .isNotNull();
  }

  @Test
  void aPushIsDescribedWithWhoWhenWhereAndWhy() {
    PublishedVersion v =
        read(
            12,
            fields(
                "8e41d07b5a13",
                "1748773323456",
                "alice",
                "laptop",
                "raise login",
                "0",
                "rules: []"));
    assertThat(v.number()).isEqualTo(12);
    assertThat(v.rulesVersion()).isEqualTo("8e41d07b5a13");
    assertThat(v.time()).isEqualTo("2025-06-01T10:22:03Z");
    assertThat(new String(v.content(), StandardCharsets.UTF_8)).isEqualTo("rules: []");
    assertThat(v.describe())
        .isEqualTo("version 12 (pushed by alice on laptop at 2025-06-01T10:22:03Z: raise login)");
  }

  @Test
  void aRollbackSaysWhichVersionItPutBack() {
    PublishedVersion v = read(13, fields("3f2a9c0d41be", "1748773323456", "bob", "ci", "", "11"));
    assertThat(v.content()).as("not read in a history listing").isNull();
    assertThat(v.note()).isEqualTo("rollback to version 11");
    assertThat(v.describe())
        .isEqualTo(
            "version 13 (published by bob on ci at 2025-06-01T10:22:03Z: rollback to version 11)");
    assertThat(read(14, fields("x", "0", "bob", "ci", "bad limits", "11", null)).note())
        .isEqualTo("rollback to version 11: bad limits");
  }

  @Test
  void textCannotForgeALogLineAndNumbersWrittenByHandAreZero() {
    PublishedVersion v =
        read(3, fields("x", "soon", "eve\nSluice: forged", "h", "a\r\tb", "one", "rules: []"));
    assertThat(v.who()).isEqualTo("eve Sluice: forged");
    assertThat(v.note()).isEqualTo("a  b");
    assertThat(v.time()).isEqualTo("1970-01-01T00:00:00Z");
  }

  @Test
  void contentWrittenByHandIsJustItsNumber() {
    PublishedVersion v = read(7, fields(null, null, null, null, null, null, "x"));
    assertThat(v.describe()).isEqualTo("version 7");
    assertThat(v.note()).isEmpty();
  }

  @Test
  void aVersionRedisHoldsNothingOfIsNone() {
    assertThat(read(4, fields(null, null, null, null, null, null, null))).isNull();
  }
}
