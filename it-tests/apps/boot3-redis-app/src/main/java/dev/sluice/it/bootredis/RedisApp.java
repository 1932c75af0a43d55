package dev.sluice.it.bootredis;

import dev.sluice.servlet.RateLimitFilter;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.core.Ordered;

/**
 * Spring Data Redis on Jedis for the app's own data, and Sluice's Filter, registered as Boot
 * registers any servlet Filter, reading the rules file {@code --sluice.config} names.
 */
@SpringBootApplication
public class RedisApp {
  public static void main(String[] args) {
    SpringApplication.run(RedisApp.class, args);
  }

  @Bean
  FilterRegistrationBean<RateLimitFilter> sluice(@Value("${sluice.config}") String config) {
    FilterRegistrationBean<RateLimitFilter> registration =
        new FilterRegistrationBean<>(new RateLimitFilter());
    registration.addInitParameter("config", config);
    registration.addUrlPatterns("/*");
    registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
    return registration;
  }
}
