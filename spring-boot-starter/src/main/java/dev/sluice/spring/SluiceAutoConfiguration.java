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
 * Sluice's Filter right after Spring Boot's observation filter and before all the others (Spring
 * Security's chain included), on a limiter that follows ratelimit.yaml live, and again after that
 * chain for the rules keyed by the user. The limiter is a bean of its own, started with the context,
 * so that the meters, the endpoint and the health indicator read it from the start. A bean of the
 * application's of the same name replaces each.
 */
@AutoConfiguration
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass(RateLimitFilter.class)
@ConditionalOnProperty(prefix = "sluice", name = "enabled", matchIfMissing = true)
@EnableConfigurationProperties(SluiceProperties.class)
public class SluiceAutoConfiguration {
  /** The name of the Filter's registration. */
  public static final String FILTER_NAME = "sluice";

  /**
   * Right after Spring Boot's ServerHttpObservationFilter ({@code HIGHEST_PRECEDENCE + 1}, in
   * WebMvcObservationAutoConfiguration), so that a 429 or a delay is observed like any response,
   * with the trace's span open; and after the character encoding and forwarded-header filters
   * ({@code HIGHEST_PRECEDENCE}) instead of tying with them.
   */
  public static final int DEFAULT_FILTER_ORDER = Ordered.HIGHEST_PRECEDENCE + 2;

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
  @ConditionalOnMissingBean(name = "sluiceFilter")
  FilterRegistrationBean<RateLimitFilter> sluiceFilter(
      LiveLimiter limiter, SluiceProperties properties) {
    FilterRegistrationBean<RateLimitFilter> registration =
        new FilterRegistrationBean<>(new RateLimitFilter(limiter));
    registration.setName(FILTER_NAME);
    registration.addUrlPatterns("/*");
    registration.setOrder(properties.getFilter().getOrder());
    return registration;
  }

  /**
   * The Filter's second mapping, which decides the rules keyed by the user once the application's
   * login has run: right after Spring Security's chain (at {@code spring.security.filter.order}),
   * or harmlessly later without one. The first mapping then leaves those rules to it.
   */
  @Bean
  @ConditionalOnMissingBean(name = "sluiceAfterLoginFilter")
  FilterRegistrationBean<RateLimitFilter> sluiceAfterLoginFilter(
      @Value("${spring.security.filter.order:" + SecurityProperties.DEFAULT_FILTER_ORDER + "}")
          int securityOrder) {
    FilterRegistrationBean<RateLimitFilter> registration =
        new FilterRegistrationBean<>(new RateLimitFilter());
    registration.setName(FILTER_NAME + "-after-login");
    registration.addUrlPatterns("/*");
    registration.addInitParameter(RateLimitFilter.DECIDE, RateLimitFilter.AFTER_LOGIN);
    // Saturating: a chain ordered last (Integer.MAX_VALUE) must not send this one first.
    registration.setOrder(Math.max(securityOrder, securityOrder + 1));
    return registration;
  }
}
