package dev.sluice.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LinkTest {
  @Test
  void twoSendersOnOneOrTwoCores() {
    assertThat(Link.senders(1)).isEqualTo(2);
    assertThat(Link.senders(2)).isEqualTo(2);
  }

  @Test
  void oneSenderPerCoreUpToFour() {
    assertThat(Link.senders(3)).isEqualTo(3);
    assertThat(Link.senders(4)).isEqualTo(4);
    assertThat(Link.senders(64)).isEqualTo(4);
  }
}
