package dev.sluice.spring;

import dev.sluice.config.LiveLimiter;
import dev.sluice.micrometer.SluiceMeters;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/** Sluice's meters in the application's registries, when it has Micrometer. */
@AutoConfiguration(after = SluiceAutoConfiguration.class)
@ConditionalOnClass(MeterBinder.class)
@ConditionalOnBean(LiveLimiter.class)
public class SluiceMetricsAutoConfiguration {
  @Bean
  @ConditionalOnMissingBean
  SluiceMeters sluiceMeters(LiveLimiter limiter) {
    return new SluiceMeters(limiter.metrics());
  }
}
