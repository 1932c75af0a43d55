package dev.sluice.support;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class NearestTest {
  private static final String[] RULE_FIELDS = {"id", "match", "key", "limit", "window", "burst"};

  @Test
  void editsCountInsertionsDeletionsSubstitutionsAndSwaps() {
    assertThat(Nearest.edits("limit", "limit")).isZero();
    assertThat(Nearest.edits("limt", "limit")).as("insertion").isEqualTo(1);
    assertThat(Nearest.edits("limitt", "limit")).as("deletion").isEqualTo(1);
    assertThat(Nearest.edits("limot", "limit")).as("substitution").isEqualTo(1);
    assertThat(Nearest.edits("PSOT", "POST")).as("swap").isEqualTo(1);
    assertThat(Nearest.edits("windw", "window")).isEqualTo(1);
    assertThat(Nearest.edits("", "key")).isEqualTo(3);
  }

  @Test
  void hintNamesTheNearestWithinTwoEdits() {
    assertThat(Nearest.hint("limt", RULE_FIELDS)).isEqualTo(", did you mean limit?");
    assertThat(Nearest.hint("wndow", RULE_FIELDS)).isEqualTo(", did you mean window?");
    assertThat(Nearest.hint("brust", RULE_FIELDS)).isEqualTo(", did you mean burst?");
    assertThat(Nearest.hint("Limit", RULE_FIELDS)).as("case").isEqualTo(", did you mean limit?");
    assertThat(Nearest.hint("lmt", RULE_FIELDS)).as("two edits").isEqualTo(", did you mean limit?");
  }

  @Test
  void noHintForWordsFarFromAllOrTooShortToGuess() {
    assertThat(Nearest.hint("colour", RULE_FIELDS)).isEmpty();
    assertThat(Nearest.hint("x", RULE_FIELDS)).as("two edits from id, but all of it").isEmpty();
    assertThat(Nearest.hint("", RULE_FIELDS)).isEmpty();
  }

  @Test
  void theFewestEditsWinAndTheFirstOnATie() {
    assertThat(Nearest.hint("kez", "keys", "key")).isEqualTo(", did you mean key?");
    assertThat(Nearest.hint("ab", "ax", "xb")).isEqualTo(", did you mean ax?");
  }
}
