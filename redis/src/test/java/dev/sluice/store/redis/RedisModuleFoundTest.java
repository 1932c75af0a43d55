package dev.sluice.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.store.RedisModule;
import org.junit.jupiter.api.Test;

/** The engine finds this module through its service file, by the loader that loaded the engine. */
class RedisModuleFoundTest {
  @Test
  void theEngineFindsThisModule() {
    assertThat(RedisModule.present()).isTrue();
    assertThat(RedisModule.find()).isInstanceOf(RedisStoreModule.class);
  }
}
