package dev.sluice.metrics;

import static dev.sluice.store.ManualClock.SECOND;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.store.ManualClock;
import dev.sluice.support.ShortHash;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class ExpositionTest {
  /** A sample line of the text format: name, optional labels, a value. */
  private static final Pattern SAMPLE =
      Pattern.compile(
          "([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{[a-zA-Z_][a-zA-Z0-9_]*=\"(?:[^\"\\\\\\n]|\\\\[\\\\\"n])*\""
              + "(?:,[a-zA-Z_][a-zA-Z0-9_]*=\"(?:[^\"\\\\\\n]|\\\\[\\\\\"n])*\")*\\})? (\\S+)");

  private final ManualClock clock = new ManualClock(1_800_000_000L * SECOND);
  private final Metrics metrics = new Metrics(clock::micros);
  private final RoundTrips roundTrips = new RoundTrips(clock::micros);

  private String redisText() {
    RuleCounters[] rules = metrics.bindRules(Arrays.asList("login", "api"));
    rules[0].countAllowed();
    rules[0].countDenied("ip=203.0.113.7");
    rules[0].countDeniedLocally();
    rules[1].countShadowDenied("key=k1");
    roundTrips.answered(80_000, 3);
    roundTrips.answered(300_000, 1);
    roundTrips.answered(20_000_000_000L, 1);
    roundTrips.failed();
    Map<String, String> breakers = new LinkedHashMap<>();
    breakers.put("10.0.0.1:6379", StoreStatus.CLOSED);
    breakers.put("cluster, master 10.0.0.2:6379", StoreStatus.PROBING);
    metrics.localFirst(Map.of("api", 100_000L));
    metrics.bindStore(
        () ->
            StoreStatus.redis(roundTrips, breakers, 3)
                .withLeases(Map.of("api", new LeaseStatus(2, 17, 1_800_000_000_500L, 90, 70, 2, 1, 5))));
    metrics.applied(ShortHash.of("rules: []"), 2);
    metrics.reloaded(ConfigStatus.Reload.UNCHANGED, null);
    metrics.trials(Map.of("api", 1_800_000_600_500L));
    return metrics.prometheusText();
  }

  private static Map<String, Double> samples(String text) {
    Map<String, Double> samples = new LinkedHashMap<>();
    for (String line : text.split("\n")) {
      if (!line.startsWith("#")) {
        Matcher m = SAMPLE.matcher(line);
        assertThat(m.matches()).as("a sample line: %s", line).isTrue();
        samples.put(
            m.group(1) + (m.group(2) == null ? "" : m.group(2)), Double.valueOf(m.group(3)));
      }
    }
    return samples;
  }

  @Test
  void everyLineIsCommentOrSampleAndEachFamilyComesOnceWithHelpAndType() {
    String text = redisText();
    Set<String> families = new LinkedHashSet<>();
    String current = null;
    for (String line : text.split("\n")) {
      if (line.startsWith("# HELP ")) {
        current = line.split(" ")[2];
        assertThat(families.add(current)).as("%s once", current).isTrue();
      } else if (line.startsWith("# TYPE ")) {
        assertThat(line.split(" ")[2]).isEqualTo(current);
        assertThat(line.split(" ")[3]).isIn("counter", "gauge", "histogram");
      } else {
        String name = line.substring(0, line.indexOf(line.contains("{") ? '{' : ' '));
        assertThat(name).as("a sample of the family above it").startsWith(current);
      }
    }
    samples(text);
    assertThat(families)
        .filteredOn(f -> f.endsWith("_total"))
        .containsExactly(
            "sluice_rule_decisions_total",
            "sluice_rule_local_decisions_total",
            "sluice_rule_delayed_total",
            "sluice_rule_delay_seconds_total",
            "sluice_rule_lease_permits_total",
            "sluice_redis_pipeline_commands_total",
            "sluice_redis_errors_total");
  }

  @Test
  void rulesAreCountedByOutcome() {
    Map<String, Double> s = samples(redisText());
    assertThat(s)
        .containsEntry("sluice_rule_decisions_total{rule=\"login\",outcome=\"allowed\"}", 1.0)
        .containsEntry("sluice_rule_decisions_total{rule=\"login\",outcome=\"denied\"}", 1.0)
        .containsEntry("sluice_rule_decisions_total{rule=\"api\",outcome=\"shadow_denied\"}", 1.0)
        .containsEntry(
            "sluice_rule_local_decisions_total{rule=\"login\",on_error=\"fail_closed\"}", 1.0)
        .containsEntry(
            "sluice_rule_local_decisions_total{rule=\"login\",on_error=\"fail_open\"}", 0.0);
    assertThat(s.keySet())
        .filteredOn(k -> k.startsWith("sluice_rule_top_limited_denials{rule=\"login\""))
        .singleElement()
        .asString()
        .matches(".*client=\"ip=[0-9a-f]{12}\"}");
  }

  @Test
  void aLocalFirstRuleReportsItsLeases() {
    assertThat(samples(redisText()))
        .containsEntry("sluice_rule_local_first{rule=\"api\"}", 1.0)
        .containsEntry("sluice_rule_local_first{rule=\"login\"}", 0.0)
        .containsEntry("sluice_rule_lease_permits_held{rule=\"api\"}", 17.0)
        .containsEntry("sluice_rule_lease_last_sync_timestamp_seconds{rule=\"api\"}", 1.8000000005E9)
        .containsEntry("sluice_rule_lease_permits_total{rule=\"api\",outcome=\"leased\"}", 90.0)
        .containsEntry("sluice_rule_lease_permits_total{rule=\"api\",outcome=\"spent\"}", 70.0)
        .containsEntry(
            "sluice_rule_lease_permits_total{rule=\"api\",outcome=\"given_back\"}", 2.0)
        .containsEntry("sluice_rule_lease_permits_total{rule=\"api\",outcome=\"unspent\"}", 1.0)
        .containsEntry("sluice_rule_lease_permits_total{rule=\"api\",outcome=\"exact\"}", 5.0);
  }

  @Test
  void roundTripsAreACumulativeHistogram() {
    Map<String, Double> s = samples(redisText());
    List<Double> buckets = new ArrayList<>();
    for (Map.Entry<String, Double> e : s.entrySet()) {
      if (e.getKey().startsWith("sluice_redis_round_trip_seconds_bucket")) {
        buckets.add(e.getValue());
      }
    }
    assertThat(buckets).hasSize(Exposition.LE_NANOS.length + 1).isSorted();
    assertThat(s)
        .containsEntry("sluice_redis_round_trip_seconds_bucket{le=\"0.0001\"}", 1.0)
        .containsEntry("sluice_redis_round_trip_seconds_bucket{le=\"0.0005\"}", 2.0)
        .containsEntry("sluice_redis_round_trip_seconds_bucket{le=\"10\"}", 2.0)
        .containsEntry("sluice_redis_round_trip_seconds_bucket{le=\"+Inf\"}", 3.0)
        .containsEntry("sluice_redis_round_trip_seconds_count", 3.0)
        .containsEntry("sluice_redis_round_trip_seconds_sum", 20.00038)
        .containsEntry("sluice_redis_pipeline_commands_total", 5.0)
        .containsEntry("sluice_redis_errors_total", 1.0)
        .containsEntry("sluice_redis_breaker_open{shard=\"10.0.0.1:6379\"}", 0.0)
        .containsEntry("sluice_redis_breaker_open{shard=\"cluster, master 10.0.0.2:6379\"}", 1.0)
        .containsEntry("sluice_redis_fleet_size", 3.0)
        .containsEntry("sluice_store_info{type=\"redis\"}", 1.0)
        .containsKey("sluice_redis_round_trip_recent_seconds{quantile=\"0.99\"}");
  }

  @Test
  void theConfigInForceAndItsLastReload() {
    Map<String, Double> s = samples(redisText());
    assertThat(s.keySet())
        .anyMatch(k -> k.matches("sluice_config_info\\{version=\"[0-9a-f]{12}\"}"));
    assertThat(s)
        .containsEntry("sluice_config_rules", 2.0)
        .containsEntry("sluice_config_last_reload_successful", 1.0)
        .containsEntry("sluice_config_applied_timestamp_seconds", 1.8e9)
        .containsEntry("sluice_config_last_reload_timestamp_seconds", 1.8e9);
  }

  @Test
  void aMemoryStoreHasNoRedisFamilies() {
    metrics.reloaded(ConfigStatus.Reload.REJECTED, "no file");
    String text = metrics.prometheusText();
    assertThat(text)
        .doesNotContain("sluice_redis_")
        .contains("sluice_store_info{type=\"memory\"} 1");
    assertThat(samples(text)).containsEntry("sluice_config_last_reload_successful", 0.0);
    assertThat(text).doesNotContain("sluice_config_info");
  }

  @Test
  void everyExportedBucketIsABoundOfTheHistogram() {
    for (long le : Exposition.LE_NANOS) {
      assertThat(Histogram.BOUNDS).contains(le);
    }
  }

  /** The docs, alert rules and dashboard name only metrics Sluice writes. */
  @Test
  void everyMetricTheDocsNameIsWritten() throws Exception {
    Set<String> written = new LinkedHashSet<>();
    for (String name : samples(redisText()).keySet()) {
      String family = name.replaceAll("\\{.*", "");
      written.add(family);
      written.add(family.replaceAll("_(bucket|sum|count)$", ""));
    }
    Pattern metric = Pattern.compile("\\bsluice_(?!jmx_)[a-z_]*[a-z]");
    for (String doc : new String[] {"operations.md", "alerts.yml", "grafana-dashboard.json"}) {
      Matcher m = metric.matcher(Files.readString(Path.of("..", "docs", doc)));
      List<String> named = new ArrayList<>();
      while (m.find()) {
        named.add(m.group());
      }
      assertThat(named).as(doc).isNotEmpty();
      assertThat(written).as(doc).containsAll(named);
    }
  }
}
