package dev.sluice.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.LogCapture;
import dev.sluice.store.RulesInForce;
import java.util.List;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.JedisPooled;

class FleetTest {
  private final Fleet fleet = new Fleet("p", 0, 1);

  @Test
  void aChangedSizeIsLoggedOnceWithTheRulesVersion() {
    RulesInForce.version("0a1b2c3d4e5f");
    try (LogCapture log = LogCapture.of("dev.sluice.store.redis")) {
      fleet.beat(new Counting(3), ScriptTime.REDIS);
      fleet.beat(new Counting(3), ScriptTime.REDIS);
      assertThat(fleet.size()).isEqualTo(3);
      assertThat(log.messages())
          .containsExactly(
              "Sluice: 3 JVMs share the limits instead of 1 (rules version 0a1b2c3d4e5f).");
    }
  }

  /** A client that never reaches a server: every heartbeat counts {@code members}. */
  private static final class Counting extends JedisPooled {
    private final long members;

    Counting(long members) {
      super("127.0.0.1", 1);
      this.members = members;
    }

    @Override
    public Object evalsha(String sha1, List<String> keys, List<String> args) {
      return members;
    }
  }
}
