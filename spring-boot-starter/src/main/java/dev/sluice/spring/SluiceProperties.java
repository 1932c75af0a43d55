package dev.sluice.spring;

import org.springframework.boot.context.properties.ConfigurationProperties;

/** The {@code sluice.*} properties of a Spring Boot application; docs/spring-boot.md. */
@ConfigurationProperties("sluice")
public class SluiceProperties {
  /** Whether Sluice limits this application; false registers nothing of it. */
  private boolean enabled = true;

  /**
   * Where ratelimit.yaml is: a file path or classpath:name. Unset: ./ratelimit.yaml when it exists,
   * else classpath:ratelimit.yaml when there is one, else ./ratelimit.yaml once it appears. Either
   * is reloaded live.
   */
  private String config;

  /**
   * What an invalid or missing ratelimit.yaml does at start-up: serve (unlimited until a valid one
   * appears) or refuse_start (the application does not start).
   */
  private String onInvalidConfig;

  private final Health health = new Health();

  private final Filter filter = new Filter();

  public boolean isEnabled() {
    return enabled;
  }

  public void setEnabled(boolean enabled) {
    this.enabled = enabled;
  }

  public String getConfig() {
    return config;
  }

  public void setConfig(String config) {
    this.config = config;
  }

  public String getOnInvalidConfig() {
    return onInvalidConfig;
  }

  public void setOnInvalidConfig(String onInvalidConfig) {
    this.onInvalidConfig = onInvalidConfig;
  }

  public Health getHealth() {
    return health;
  }

  public Filter getFilter() {
    return filter;
  }

  /** The {@code sluice.filter.*} properties. */
  public static class Filter {
    /**
     * The order of Sluice's Filter among the application's filters. The default runs it right after
     * Spring Boot's observation filter, so that its 429s and delays are in http.server.requests and
     * on the request's trace, and before everything else, Spring Security's chain included.
     */
    private int order = SluiceAutoConfiguration.DEFAULT_FILTER_ORDER;

    public int getOrder() {
      return order;
    }

    public void setOrder(int order) {
      this.order = order;
    }
  }

  /** The {@code sluice.health.*} properties. */
  public static class Health {
    /**
     * Whether a Redis store that cannot answer at all makes the application's overall health DOWN.
     * Off, it is DEGRADED, which the overall health ignores: Sluice then decides locally, and a
     * rate limiter's Redis must not get the application restarted.
     */
    private boolean affectsOverall;

    public boolean isAffectsOverall() {
      return affectsOverall;
    }

    public void setAffectsOverall(boolean affectsOverall) {
      this.affectsOverall = affectsOverall;
    }
  }
}
