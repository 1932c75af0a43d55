package dev.sluice.spring;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.config.LiveLimiter;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.autoconfigure.health.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.context.annotation.Bean;

/** Sluice's Actuator endpoint and health indicator, when the application has Actuator. */
@AutoConfiguration(after = SluiceAutoConfiguration.class)
@ConditionalOnClass({Endpoint.class, ObjectMapper.class})
@ConditionalOnBean(LiveLimiter.class)
public class SluiceActuatorAutoConfiguration {
  @Bean
  @ConditionalOnAvailableEndpoint
  SluiceEndpoint sluiceEndpoint(LiveLimiter limiter) {
    return new SluiceEndpoint(limiter.admin());
  }

  @Bean
  @ConditionalOnEnabledHealthIndicator("sluice")
  SluiceHealthIndicator sluiceHealthIndicator(LiveLimiter limiter, SluiceProperties properties) {
    return new SluiceHealthIndicator(limiter.metrics(), properties.getHealth().isAffectsOverall());
  }
}
