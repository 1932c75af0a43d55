package dev.sluice.metrics;

import static dev.sluice.store.ManualClock.SECOND;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.store.ManualClock;
import dev.sluice.support.ShortHash;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import javax.management.openmbean.CompositeData;
import javax.management.openmbean.TabularData;
import org.junit.jupiter.api.Test;

class JmxTest {
  private final MBeanServer server = ManagementFactory.getPlatformMBeanServer();
  private final ManualClock clock = new ManualClock(1_800_000_000L * SECOND);
  private final Metrics metrics = new Metrics(clock::micros);

  private static ObjectName name(String properties) throws Exception {
    return new ObjectName("dev.sluice:" + properties);
  }

  @Test
  void registersTheConfigTheStoreAndEachRuleInForce() throws Exception {
    RuleCounters[] rules = metrics.bindRules(Arrays.asList("login", "api"));
    rules[0].countDenied("ip=203.0.113.7");
    rules[0].countDenied("ip=203.0.113.7");
    metrics.applied(ShortHash.of("rules: []"), 2);
    metrics.reloaded(ConfigStatus.Reload.APPLIED, null);
    metrics.inShadow(Set.of("api"));
    metrics.trials(Map.of("api", 1_800_000_600_000L));
    try (Jmx jmx = Jmx.register(metrics, "shop")) {
      assertThat(jmx.context()).isEqualTo("shop");
      ObjectName login = name("type=Rule,context=shop,name=login");
      assertThat(server.getAttribute(login, "Denied")).isEqualTo(2L);
      assertThat(server.getAttribute(login, "Mode")).isEqualTo("enforce");
      assertThat(server.getAttribute(login, "EnforcesAt")).isEqualTo(0L);
      ObjectName api = name("type=Rule,context=shop,name=api");
      assertThat(server.getAttribute(api, "Mode")).isEqualTo("shadow");
      assertThat(server.getAttribute(api, "EnforcesAt")).isEqualTo(1_800_000_600_000L);
      CompositeData[] top = (CompositeData[]) server.getAttribute(login, "TopLimited");
      assertThat(top).hasSize(1);
      assertThat((String) top[0].get("client")).matches("ip=[0-9a-f]{12}");
      assertThat(top[0].get("denials")).isEqualTo(2L);

      ObjectName store = name("type=Store,context=shop");
      assertThat(server.getAttribute(store, "Type")).isEqualTo("memory");
      assertThat(server.getAttribute(store, "FleetSize")).isEqualTo(1);
      assertThat(((TabularData) server.getAttribute(store, "Breakers")).isEmpty()).isTrue();

      ObjectName config = name("type=Config,context=shop");
      assertThat((String) server.getAttribute(config, "RulesVersion")).matches("[0-9a-f]{12}");
      assertThat(server.getAttribute(config, "LastReloadResult")).isEqualTo("applied");
      assertThat(server.getAttribute(config, "Rules")).isEqualTo(2);
    }
    assertThat(server.queryNames(name("context=shop,*"), null)).as("all unregistered").isEmpty();
  }

  @Test
  void ruleBeansFollowReloads() throws Exception {
    metrics.bindRules(Arrays.asList("login", "api"));
    try (Jmx jmx = Jmx.register(metrics, "reloads")) {
      metrics.bindRules(Arrays.asList("api", "search"));
      assertThat(server.queryNames(name("type=Rule,context=reloads,*"), null))
          .containsExactlyInAnyOrder(
              name("type=Rule,context=reloads,name=api"),
              name("type=Rule,context=reloads,name=search"));
    }
  }

  @Test
  void aSecondLimiterOfTheSameNameGetsAContextOfItsOwn() throws Exception {
    Metrics other = new Metrics(clock::micros);
    other.bindRules(Arrays.asList("login"));
    metrics.bindRules(Arrays.asList("login"));
    try (Jmx first = Jmx.register(metrics, "/shop app");
        Jmx second = Jmx.register(other, "/shop app")) {
      assertThat(first.context()).isEqualTo("/shop_app");
      assertThat(second.context()).isEqualTo("/shop_app-2");
      first.close();
      assertThat(server.isRegistered(name("type=Rule,context=/shop_app-2,name=login"))).isTrue();
      assertThat(server.isRegistered(name("type=Rule,context=/shop_app,name=login"))).isFalse();
      metrics.bindRules(Arrays.asList("login", "api"));
      assertThat(server.isRegistered(name("type=Rule,context=/shop_app,name=api")))
          .as("closed: it follows no reload")
          .isFalse();
    }
  }
}
