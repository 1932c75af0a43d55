package dev.sluice.metrics;

import java.util.List;
import java.util.Map;
import javax.management.StandardMBean;

/** The MXBeans {@link Jmx} registers: each reads {@link Metrics} afresh at every attribute read. */
final class JmxBeans {
  private JmxBeans() {}

  static StandardMBean rule(RuleCounters counters, Metrics metrics) {
    return new StandardMBean(new Rule(counters, metrics), RuleMXBean.class, true);
  }

  static StandardMBean store(Metrics metrics) {
    return new StandardMBean(new Store(metrics), StoreMXBean.class, true);
  }

  static StandardMBean config(Metrics metrics) {
    return new StandardMBean(new Config(metrics), ConfigMXBean.class, true);
  }

  private static final class Rule implements RuleMXBean {
    private final RuleCounters counters;
    private final Metrics metrics;

    Rule(RuleCounters counters, Metrics metrics) {
      this.counters = counters;
      this.metrics = metrics;
    }

    @Override
    public long getAllowed() {
      return counters.allowed();
    }

    @Override
    public long getDenied() {
      return counters.denied();
    }

    @Override
    public long getShadowDenied() {
      return counters.shadowDenied();
    }

    @Override
    public long getDecidedLocally() {
      return counters.decidedLocally();
    }

    @Override
    public long getDeniedLocally() {
      return counters.deniedLocally();
    }

    @Override
    public List<LimitedClient> getTopLimited() {
      return counters.topLimited(metrics.rawIdentities());
    }

    @Override
    public String getMode() {
      return metrics.inShadow(counters.ruleId()) ? "shadow" : "enforce";
    }

    @Override
    public long getEnforcesAt() {
      Long at = metrics.trials().get(counters.ruleId());
      return at == null ? 0 : at;
    }
  }

  private static final class Store implements StoreMXBean {
    private final Metrics metrics;

    Store(Metrics metrics) {
      this.metrics = metrics;
    }

    @Override
    public String getType() {
      return metrics.store().type();
    }

    @Override
    public double getRoundTripP50Millis() {
      return metrics.store().recentRoundTrips().quantileSeconds(0.5) * 1e3;
    }

    @Override
    public double getRoundTripP99Millis() {
      return metrics.store().recentRoundTrips().quantileSeconds(0.99) * 1e3;
    }

    @Override
    public long getRoundTrips() {
      return metrics.store().allRoundTrips().count();
    }

    @Override
    public long getErrors() {
      return metrics.store().errors();
    }

    @Override
    public double getPipelineCommandsMean() {
      return metrics.store().meanPipelineCommands();
    }

    @Override
    public Map<String, String> getBreakers() {
      return metrics.store().breakers();
    }

    @Override
    public int getOpenBreakers() {
      return metrics.store().openBreakers();
    }

    @Override
    public int getFleetSize() {
      return metrics.store().fleetSize();
    }
  }

  private static final class Config implements ConfigMXBean {
    private final Metrics metrics;

    Config(Metrics metrics) {
      this.metrics = metrics;
    }

    @Override
    public String getRulesVersion() {
      String version = metrics.config().version();
      return version == null ? "" : version;
    }

    @Override
    public int getRules() {
      return metrics.config().rules();
    }

    @Override
    public long getAppliedAtMillis() {
      return metrics.config().appliedAtMillis();
    }

    @Override
    public long getLastReloadAtMillis() {
      return metrics.config().lastReloadAtMillis();
    }

    @Override
    public String getLastReloadResult() {
      ConfigStatus.Reload result = metrics.config().lastReload();
      return result == null ? "" : result.toString();
    }

    @Override
    public String getLastReloadProblem() {
      String problem = metrics.config().problem();
      return problem == null ? "" : problem;
    }
  }
}
