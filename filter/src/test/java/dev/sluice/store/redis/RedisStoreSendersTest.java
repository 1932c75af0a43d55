package dev.sluice.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RedisStoreSendersTest {
  @Test
  void twoSendersOnOneOrTwoCores() {
    assertThat(RedisStore.senders(1)).isEqualTo(2);
    assertThat(RedisStore.senders(2)).isEqualTo(2);
  }

  @Test
  void oneSenderPerCoreUpToFour() {
    assertThat(RedisStore.senders(3)).isEqualTo(3);
    assertThat(RedisStore.senders(4)).isEqualTo(4);
    assertThat(RedisStore.senders(64)).isEqualTo(4);
  }
}
