package dev.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class RulesVersionTest {

  @Test
  void isTheFirst12HexDigitsOfTheSha256OfTheContent() {
    // sha256sum of "abc": ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad
    assertThat(RulesVersion.of(bytes("abc"))).isEqualTo("ba7816bf8f01");
  }

  @Test
  void aDigestByteBelow16StillTakesTwoDigits() {
    // sha256sum of "3": 4e07408562be..., whose second byte is 0x07
    assertThat(RulesVersion.of(bytes("3"))).isEqualTo("4e07408562be");
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
