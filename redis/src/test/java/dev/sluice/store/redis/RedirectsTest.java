package dev.sluice.store.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchRuntimeException;

import dev.sluice.store.ManualClock;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.util.RedisInputStream;

/** Which error replies send a call once more, and where: as Jedis parses what Redis answers. */
class RedirectsTest {
  private static final PendingCall CALL =
      new PendingCall(
          Script.ACQUIRE,
          new Breaker(new ManualClock(0), "test"),
          Collections.singletonList("rl{abc}defghij"),
          IdentityCall.oneRequest("0", 1),
          System.nanoTime() + 60_000_000_000L);

  /** What Jedis throws for an error reply {@code line}, as a pipeline's response would. */
  private static RuntimeException reply(String line) {
    byte[] bytes = ("-" + line + "\r\n").getBytes(StandardCharsets.US_ASCII);
    return catchRuntimeException(
        () -> Protocol.read(new RedisInputStream(new ByteArrayInputStream(bytes))));
  }

  @Test
  void movedGoesToTheMasterItNamesWithoutAskingAndRenewsTheSlotMap() {
    Redirects.Hop hop = Redirects.hop(CALL, reply("MOVED 3999 127.0.0.1:7002"));
    assertThat(hop.call).isSameAs(CALL);
    assertThat(hop.target).isEqualTo(new HostAndPort("127.0.0.1", 7002));
    assertThat(hop.asking).isFalse();
    assertThat(hop.moved()).isTrue();
  }

  @Test
  void askGoesToTheNodeItNamesAfterAskingAndLeavesTheSlotMap() {
    Redirects.Hop hop = Redirects.hop(CALL, reply("ASK 3999 10.0.0.5:7005"));
    assertThat(hop.target).isEqualTo(new HostAndPort("10.0.0.5", 7005));
    assertThat(hop.asking).isTrue();
    assertThat(hop.moved()).isFalse();
  }

  /**
   * Error replies that are no redirect: TRYAGAIN (keys split by a migration, which no redirect
   * outlasts), a cluster that is down, NOSCRIPT (sent again by text elsewhere) and a script error.
   */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "TRYAGAIN Multiple keys request during rehashing of slot",
        "CLUSTERDOWN Hash slot not served",
        "NOSCRIPT No matching script. Please use EVAL.",
        "ERR user_script:1: Script attempted to access a non local key in a cluster node"
      })
  void otherErrorRepliesAreNotFollowed(String line) {
    assertThat(Redirects.hop(CALL, reply(line))).isNull();
  }

  @Test
  void aCallThatMayHaveCountedIsNotFollowed() {
    assertThat(Redirects.hop(CALL, new JedisConnectionException("Read timed out"))).isNull();
  }
}
