package dev.sluice.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.LiveLimiter;
import dev.sluice.micrometer.SluiceMeters;
import dev.sluice.servlet.RateLimitFilter;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableWebApplicationContext;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;

/** Where the starter puts its two mappings, and that the application's own beans replace them. */
class FilterOrderTest {
  private final WebApplicationContextRunner runner =
      new WebApplicationContextRunner()
          .withConfiguration(
              AutoConfigurations.of(
                  SluiceAutoConfiguration.class, SluiceMetricsAutoConfiguration.class))
          .withPropertyValues("sluice.config=classpath:ratelimit.yaml");

  private static int order(AssertableWebApplicationContext context, String name) {
    return context.getBean(name, FilterRegistrationBean.class).getOrder();
  }

  @Test
  void byDefaultRightAfterBootsObservationFilterAndRightAfterSpringSecuritysChain() {
    runner.run(
        context -> {
          // Boot's ServerHttpObservationFilter is at HIGHEST_PRECEDENCE + 1.
          assertThat(order(context, "sluiceFilter")).isEqualTo(Ordered.HIGHEST_PRECEDENCE + 2);
          assertThat(order(context, "sluiceAfterLoginFilter")).isEqualTo(-100 + 1);
        });
  }

  @Test
  void sluiceFilterOrderMovesTheFirstMapping() {
    runner
        .withPropertyValues("sluice.filter.order=42")
        .run(context -> assertThat(order(context, "sluiceFilter")).isEqualTo(42));
  }

  @Test
  void theAfterLoginMappingFollowsSpringSecuritysOrder() {
    runner
        .withPropertyValues("spring.security.filter.order=7")
        .run(context -> assertThat(order(context, "sluiceAfterLoginFilter")).isEqualTo(8));
    runner
        .withPropertyValues("spring.security.filter.order=" + Integer.MAX_VALUE)
        .run(
            context ->
                assertThat(order(context, "sluiceAfterLoginFilter")).isEqualTo(Integer.MAX_VALUE));
  }

  @Test
  void theApplicationsOwnBeansReplaceTheStartersFilterAndMeters() {
    runner
        .withUserConfiguration(Own.class)
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              assertThat(order(context, "sluiceFilter")).isEqualTo(5);
              assertThat(context.getBeansOfType(SluiceMeters.class)).containsOnlyKeys("ownMeters");
              assertThat(order(context, "sluiceAfterLoginFilter")).isEqualTo(-99);
            });
  }

  @Configuration(proxyBeanMethods = false)
  static class Own {
    @Bean
    FilterRegistrationBean<RateLimitFilter> sluiceFilter(LiveLimiter limiter) {
      FilterRegistrationBean<RateLimitFilter> filter =
          new FilterRegistrationBean<>(new RateLimitFilter(limiter));
      filter.setOrder(5);
      return filter;
    }

    @Bean
    SluiceMeters ownMeters(LiveLimiter limiter) {
      return new SluiceMeters(limiter.metrics());
    }
  }
}
