package dev.sluice.spring;

import dev.sluice.config.ConfigSource;
import dev.sluice.config.LiveLimiter;
import dev.sluice.config.OnInvalidConfig;
import dev.sluice.servlet.RateLimitFilter;
import java.nio.file.Paths;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.security.SecurityProperties;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.core.Ordered;

/**
 * Sluice's Filter first among the application's filters (before Spring Security's chain), on a
 * limiter that follows ratelimit.yaml live, and again after that chain for the rules keyed by the
 * user. The limiter is a bean of its own, started with the context, so that the meters, the
 * endpoint and the health indicator read it from the start.
 */
@AutoConfiguration
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass(RateLimitFilter.class)
@ConditionalOnProperty(prefix = "sluice", name = "enabled", matchIfMissing = true)
@EnableConfigurationProperties(SluiceProperties.class)
public class SluiceAutoConfiguration {
  /** The name of the Filter's registration. */
  public static final String FILTER_NAME = "sluice";

  @Bean(destroyMethod = "close")
  @ConditionalOnMissingBean
  LiveLimiter sluiceLimiter(
      SluiceProperties properties, @Value("${server.servlet.context-path:}") String contextPath) {
    ClassLoader loader = getClass().getClassLoader();
    String location =
        ConfigLocation.resolve(properties.getConfig(), Paths.get("").toAbsolutePath(), loader);
    return LiveLimiter.start(
        ConfigSource.of(location, loader),
        OnInvalidConfig.locate(properties.getOnInvalidConfig(), System.getenv()),
        RateLimitFilter.contextName(contextPath));
  }

  @Bean
  FilterRegistrationBean<RateLimitFilter> sluiceFilter(LiveLimiter limiter) {
    FilterRegistrationBean<RateLimitFilter> registration =
        new FilterRegistrationBean<>(new RateLimitFilter(limiter));
    registration.setName(FILTER_NAME);
    registration.addUrlPatterns("/*");
    registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
    return registration;
  }

  /**
   * The Filter's second mapping, which decides the rules keyed by the user once the application's
   * login has run: right after Spring Security's chain (its default order), or harmlessly second
   * without one. The first mapping then leaves those rules to it.
   */
  @Bean
  FilterRegistrationBean<RateLimitFilter> sluiceAfterLoginFilter() {
    FilterRegistrationBean<RateLimitFilter> registration =
        new FilterRegistrationBean<>(new RateLimitFilter());
    registration.setName(FILTER_NAME + "-after-login");
    registration.addUrlPatterns("/*");
    registration.addInitParameter(RateLimitFilter.DECIDE, RateLimitFilter.AFTER_LOGIN);
    registration.setOrder(SecurityProperties.DEFAULT_FILTER_ORDER + 1);
    return registration;
  }
}
