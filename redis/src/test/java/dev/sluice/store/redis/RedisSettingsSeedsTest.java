package dev.sluice.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.HostAndPort;

class RedisSettingsSeedsTest {
  @Test
  void eachClientAsksTheSeedsInAnOrderOfItsOwn() {
    RedisSettings settings =
        RedisSettings.cluster(
            List.of(
                URI.create("redis://10.0.0.1:7000"),
                URI.create("redis://10.0.0.2:7000"),
                URI.create("redis://10.0.0.3:7000")),
            50,
            4);
    Set<HostAndPort> firsts = new HashSet<>();
    for (int i = 0; i < 60; i++) {
      Set<HostAndPort> seeds = settings.hostsAndPorts();
      assertThat(seeds).hasSize(3);
      firsts.add(seeds.iterator().next());
    }
    // Fixed order: one first seed in 60 clients; shuffled, all three (a miss is 3 × (2/3)^60).
    assertThat(firsts).hasSize(3);
  }
}
