package dev.sluice.admin;

import static dev.sluice.admin.AdminTesting.get;
import static dev.sluice.admin.AdminTesting.json;
import static dev.sluice.admin.AdminTesting.request;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.http.FakeExchange;
import dev.sluice.metrics.LeaseStatus;
import dev.sluice.metrics.RoundTrips;
import dev.sluice.metrics.StoreStatus;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The status document and /explain say each rule's consistency, and a local-first one's leases. */
class LocalFirstStatusTest {
  private static final String RULES =
      "rules:\n"
          + "  - { id: api, match: { path: /api/** }, key: ip, limit: 100, window: 1m,"
          + " consistency: local_first, sync: 250ms }\n"
          + "  - { id: login, match: { path: /api/login }, key: ip, limit: 5, window: 1m }\n"
          + "  - { id: trial, match: { path: /api/** }, key: ip, limit: 5, window: 1m,"
          + " shadow: true, consistency: local_first }\n";

  private static final LeaseStatus API_LEASES =
      new LeaseStatus(3, 42, 1_800_000_000_123L, 500, 450, 6, 2, 11);

  private final AdminTesting t = new AdminTesting(RULES).allow(null, "127.0.0.1/32");

  private void onRedis() {
    t.metrics.bindStore(
        () ->
            StoreStatus.redis(new RoundTrips(t.clock::micros), Collections.emptyMap(), 4)
                .withLeases(Map.of("api", API_LEASES)));
  }

  @SuppressWarnings("unchecked")
  private List<Map<String, Object>> statusRules() throws Exception {
    FakeExchange status = get("/_sluice/status", "127.0.0.1", null);
    assertThat(t.admin.answered(status)).isTrue();
    return (List<Map<String, Object>>) json(status.body).get("rules");
  }

  @Test
  @SuppressWarnings("unchecked")
  void aLocalFirstRuleShowsItsSyncAndLeasesAndTheOthersAreExact() throws Exception {
    onRedis();
    List<Map<String, Object>> rules = statusRules();
    assertThat(rules.get(0)).containsEntry("consistency", "local_first");
    assertThat(rules.get(0)).containsEntry("syncMillis", 250);
    assertThat((Map<String, Object>) rules.get(0).get("leases"))
        .containsEntry("count", 3)
        .containsEntry("permitsHeld", 42)
        .containsEntry("lastSyncAt", 1_800_000_000_123L)
        .containsEntry("leased", 500)
        .containsEntry("spent", 450)
        .containsEntry("givenBack", 6)
        .containsEntry("exact", 11)
        .containsEntry("unspent", 2);
    assertThat(rules.get(1)).containsEntry("consistency", "exact").doesNotContainKey("leases");
    assertThat(rules.get(2))
        .as("a shadow rule counts exactly whatever it says")
        .containsEntry("consistency", "exact");
  }

  @Test
  void theMemoryStoreDecidesEveryRuleExactly() throws Exception {
    assertThat(statusRules()).allSatisfy(r -> assertThat(r).containsEntry("consistency", "exact"));
  }

  @Test
  @SuppressWarnings("unchecked")
  void explainSaysTheConsistencyOfEachRuleItMatches() throws Exception {
    onRedis();
    FakeExchange explain =
        new FakeExchange(request("/_sluice/explain", "127.0.0.1"), "path=%2Fapi%2Flogin");
    assertThat(t.admin.answered(explain)).isTrue();
    List<Map<String, Object>> rules = (List<Map<String, Object>>) json(explain.body).get("rules");
    assertThat(rules.get(0))
        .containsEntry("consistency", "local_first")
        .containsEntry("syncMillis", 250);
    assertThat((Map<String, Object>) rules.get(0).get("leases")).containsEntry("permitsHeld", 42);
    assertThat(rules.get(1)).containsEntry("consistency", "exact");
  }
}
