package dev.sluice.metrics;

import static dev.sluice.store.ManualClock.SECOND;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.store.ManualClock;
import dev.sluice.support.ShortHash;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class MetricsTest {
  private final ManualClock clock = new ManualClock(1_800_000_000L * SECOND);
  private final Metrics metrics = new Metrics(clock::micros);

  private List<String> reported() {
    return metrics.rules().stream().map(RuleStats::ruleId).collect(Collectors.toList());
  }

  @Test
  void aRuleKeepsItsCountsByIdThroughAReloadAndOneWithoutIt() {
    RuleCounters[] first = metrics.bindRules(Arrays.asList("login", "api"));
    first[0].countAllowed();
    first[1].countDenied("ip=1");

    RuleCounters[] second = metrics.bindRules(Arrays.asList("api", "new"));
    assertThat(second[0]).as("api, kept").isSameAs(first[1]);
    assertThat(reported()).containsExactly("api", "new");

    RuleCounters[] third = metrics.bindRules(Arrays.asList("login", "api"));
    assertThat(third[0]).as("login, back after one reload without it").isSameAs(first[0]);
    assertThat(metrics.rules().get(0).allowed()).isEqualTo(1);

    metrics.bindRules(Arrays.asList("api"));
    metrics.bindRules(Arrays.asList("api"));
    assertThat(metrics.bindRules(Arrays.asList("login"))[0])
        .as("gone for two reloads: counted afresh")
        .isNotSameAs(first[0]);
  }

  @Test
  void everyListenerHearsOfChangedRulesUntilItStops() {
    int[] heard = new int[2];
    Runnable first = () -> heard[0]++;
    metrics.onRulesChanged(first);
    metrics.onRulesChanged(() -> heard[1]++);
    metrics.bindRules(Arrays.asList("a"));
    metrics.bindRules(Arrays.asList("a"));
    metrics.stopOnRulesChanged(first);
    metrics.bindRules(Arrays.asList("b"));
    assertThat(heard).as("changes heard; the same rules again is none").containsExactly(1, 2);
  }

  @Test
  void oneRuleInForceIsReadById() {
    metrics.bindRules(Arrays.asList("login", "api"))[1].countDenied("ip=1");
    assertThat(metrics.rule("api").denied()).isEqualTo(1);
    metrics.bindRules(Arrays.asList("login"));
    assertThat(metrics.rule("api")).as("no longer in force").isNull();
  }

  @Test
  void aNewTopListSizeStartsTheListsOver() {
    RuleCounters counters = metrics.bindRules(Arrays.asList("api"))[0];
    counters.countDenied("ip=1");
    metrics.topClients(Metrics.DEFAULT_TOP_CLIENTS, false);
    assertThat(metrics.rules().get(0).topLimited()).as("the same size: kept").hasSize(1);
    metrics.topClients(3, false);
    assertThat(metrics.rules().get(0).topLimited()).isEmpty();
    assertThat(metrics.rules().get(0).denied()).as("only the list starts over").isEqualTo(1);
  }

  @Test
  void rawIdentitiesAreShownOnlyWhenChosen() {
    metrics.bindRules(Arrays.asList("api"))[0].countDenied("key=k-123");
    assertThat(metrics.rules().get(0).topLimited().get(0).getClient()).doesNotContain("k-123");
    metrics.topClients(Metrics.DEFAULT_TOP_CLIENTS, true);
    assertThat(metrics.rules().get(0).topLimited().get(0).getClient()).isEqualTo("key=k-123");
  }

  @Test
  void theConfigVersionIsTheContentHashAndReloadsAreTimed() throws Exception {
    byte[] content = "rules: []\n".getBytes(StandardCharsets.UTF_8);
    metrics.applied(ShortHash.of(content), 0);
    metrics.reloaded(ConfigStatus.Reload.APPLIED, null);
    String sha256 = hex(MessageDigest.getInstance("SHA-256").digest(content));
    assertThat(metrics.config().version()).isEqualTo(sha256.substring(0, 12));
    assertThat(metrics.config().appliedAtMillis()).isEqualTo(1_800_000_000_000L);

    clock.advanceSeconds(1);
    metrics.reloaded(ConfigStatus.Reload.REJECTED, "line 3: limit must be a whole number");
    ConfigStatus config = metrics.config();
    assertThat(config.lastReload()).isEqualTo(ConfigStatus.Reload.REJECTED);
    assertThat(config.lastReload()).hasToString("rejected");
    assertThat(config.problem()).contains("line 3");
    assertThat(config.lastReloadAtMillis()).isEqualTo(1_800_000_001_000L);
    assertThat(config.version()).as("the rules in force stay").isEqualTo(sha256.substring(0, 12));
  }

  private static String hex(byte[] bytes) {
    StringBuilder out = new StringBuilder();
    for (byte b : bytes) {
      out.append(String.format("%02x", b));
    }
    return out.toString();
  }
}
