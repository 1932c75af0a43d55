package dev.sluice.example.boot;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;

/**
 * The application's own login, as Sluice finds it in many apps: Spring Security, HTTP Basic, two
 * users in memory. {@code /api/me} needs a user; everything else is open. The user is known only
 * once Spring Security's filters have run, after Sluice's first look at the request.
 */
@Configuration
public class SecurityConfig {
  @Bean
  SecurityFilterChain security(HttpSecurity http) throws Exception {
    return http.authorizeHttpRequests(
            requests ->
                requests.requestMatchers("/api/me").authenticated().anyRequest().permitAll())
        .httpBasic(Customizer.withDefaults())
        .build();
  }

  /** Example users; {noop}: the passwords are stored as written, fit for an example only. */
  @Bean
  InMemoryUserDetailsManager users() {
    return new InMemoryUserDetailsManager(
        User.withUsername("alice").password("{noop}alice-password").roles("USER").build(),
        User.withUsername("bob").password("{noop}bob-password").roles("USER").build());
  }
}
