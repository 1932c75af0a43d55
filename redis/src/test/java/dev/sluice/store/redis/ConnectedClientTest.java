package dev.sluice.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ConnectedClientTest {
  @Test
  void twoSendersOnOneOrTwoCores() {
    assertThat(ConnectedClient.senders(1)).isEqualTo(2);
    assertThat(ConnectedClient.senders(2)).isEqualTo(2);
  }

  @Test
  void oneSenderPerCoreUpToFour() {
    assertThat(ConnectedClient.senders(3)).isEqualTo(3);
    assertThat(ConnectedClient.senders(4)).isEqualTo(4);
    assertThat(ConnectedClient.senders(64)).isEqualTo(4);
  }
}
