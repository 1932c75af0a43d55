package dev.sluice.http;

import static dev.sluice.store.ManualClock.SECOND;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.ConfigParser;
import dev.sluice.core.Limiter;
import dev.sluice.core.Rules;
import dev.sluice.core.TestRequest;
import dev.sluice.store.ManualClock;
import dev.sluice.store.MemoryStore;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The places a {@link WaitingRoom} keeps per rule, as reloads come and go. */
class WaitingRoomTest {
  private final ManualClock clock = new ManualClock(1_800_000_000L * SECOND);
  private final Limiter limiter = new Limiter(new MemoryStore(clock, 100, 0));
  private final List<Long> waits = new ArrayList<>();
  private WaitingRoom.Sleeper sleeper = waits::add;
  private final WaitingRoom room = new WaitingRoom(micros -> sleeper.sleep(micros));

  private static Rules rules(String... delayedIds) throws Exception {
    StringBuilder yaml = new StringBuilder("rules:\n");
    for (String id : delayedIds) {
      yaml.append("  - { id: ")
          .append(id)
          .append(", match: { path: /")
          .append(id)
          .append(" }, key: ip, limit: 5, window: 1s, algorithm: token_bucket,")
          .append(" delay: { max_wait: 2s } }\n");
    }
    yaml.append("  - { id: plain, match: { path: /plain }, key: ip, limit: 5, window: 1s }\n");
    return ConfigParser.parse("test.yaml", yaml.toString()).rules();
  }

  /** One request to /{@code id}, held as the Enforcer holds it; true when it may be served. */
  private boolean request(String id) {
    return room.hold(limiter.decide(TestRequest.post("/" + id)), limiter).allowed();
  }

  @Test
  void aReloadThatDropsADelayedRuleForgetsItsPlaces() throws Exception {
    limiter.apply(rules("pay", "order"));
    for (int i = 0; i < 2; i++) {
      assertThat(request("pay")).isTrue();
      assertThat(request("order")).isTrue();
    }
    assertThat(room.places()).containsExactlyInAnyOrder("pay/4", "order/4");

    limiter.apply(rules("order"));
    assertThat(request("plain")).as("any request after the reload tidies").isTrue();
    assertThat(room.places()).containsExactlyInAnyOrder("order/4");

    limiter.apply(rules());
    assertThat(request("plain")).isTrue();
    assertThat(room.places()).as("no rule delays: no place is kept").isEmpty();
  }

  /**
   * The rule is dropped while one of its requests waits: its places stay while it waits (it must
   * still give its place back), and go when it is served.
   */
  @Test
  void aDroppedRulesPlacesGoWhenItsLastWaitingRequestIsServed() throws Exception {
    limiter.apply(rules("pay", "order"));
    assertThat(request("pay")).isTrue();
    Rules withoutPay = rules("order");
    List<List<String>> whileWaiting = new ArrayList<>();
    sleeper =
        micros -> {
          waits.add(micros);
          sleeper = waits::add;
          limiter.apply(withoutPay);
          assertThat(request("order")).isTrue();
          assertThat(request("order")).as("waits for its slot, in a place of its own").isTrue();
          whileWaiting.add(new ArrayList<>(room.places()));
        };
    assertThat(request("pay")).as("decided before the reload, served at its slot").isTrue();
    assertThat(whileWaiting.get(0)).contains("pay/4");
    assertThat(room.places()).containsExactlyInAnyOrder("order/4");
    assertThat(waits).as("a pay and an order request waited, 200 ms each").hasSize(2);
  }
}
