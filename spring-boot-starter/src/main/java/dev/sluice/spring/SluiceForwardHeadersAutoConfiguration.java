package dev.sluice.spring;

import dev.sluice.config.LiveLimiter;
import java.util.Locale;
import java.util.logging.Logger;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.cloud.CloudPlatform;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * Warns at start when the application's forward headers are on and Sluice's admin endpoint answers
 * by address alone ({@code allow_without_token: true}). With {@code
 * server.forward-headers-strategy} {@code native} (which Boot chooses by itself on Kubernetes and
 * the other cloud platforms it detects) or {@code framework}, the address a request comes from is
 * the one its forwarding header names: every client of a proxy in front of the application is then
 * any address it likes. Sluice refuses such requests at the endpoint, but a proxy that writes no
 * header still passes its clients on as itself; only a token tells them apart.
 */
@AutoConfiguration(after = SluiceAutoConfiguration.class)
@ConditionalOnBean(LiveLimiter.class)
public class SluiceForwardHeadersAutoConfiguration {
  static final String STRATEGY = "server.forward-headers-strategy";

  private static final Logger LOG = Logger.getLogger("dev.sluice.spring");

  @Bean
  SmartInitializingSingleton sluiceForwardHeadersWarning(
      LiveLimiter limiter, Environment environment) {
    return () -> {
      String strategy = forwardHeaders(environment);
      if (strategy != null && limiter.admin().opensWithoutToken()) {
        LOG.warning(
            "Sluice: admin.allow_without_token is true while forward headers are on ("
                + STRATEGY
                + "="
                + strategy
                + "): behind a proxy, the admin endpoint answers anyone the proxy forwards from an"
                + " allowed address. Use a token (admin.token) instead");
      }
    };
  }

  /** The forward-headers strategy in force, as Boot chooses it, or null when there is none. */
  static String forwardHeaders(Environment environment) {
    String strategy = environment.getProperty(STRATEGY);
    if (strategy == null) {
      CloudPlatform platform = CloudPlatform.getActive(environment);
      return platform != null && platform.isUsingForwardHeaders()
          ? "native, as on " + platform
          : null;
    }
    String chosen = strategy.trim().toLowerCase(Locale.ROOT);
    return chosen.equals("native") || chosen.equals("framework") ? chosen : null;
  }
}
