package dev.sluice.spring;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * An application with nothing of Sluice in it but the starter on its class path, and its own login
 * (Spring Security, HTTP Basic) for {@code /secure/**} only.
 */
@SpringBootApplication
@RestController
class TestApp {
  static final String PASSWORD = "test-password";

  @GetMapping({"/api/**", "/open", "/secure/**"})
  String hello() {
    return "hello";
  }

  @Bean
  SecurityFilterChain security(HttpSecurity http) throws Exception {
    return http.authorizeHttpRequests(
            requests ->
                requests.requestMatchers("/secure/**").authenticated().anyRequest().permitAll())
        .httpBasic(Customizer.withDefaults())
        .build();
  }

  @Bean
  InMemoryUserDetailsManager users() {
    return new InMemoryUserDetailsManager(
        User.withUsername("alice").password("{noop}" + PASSWORD).roles("USER").build(),
        User.withUsername("bob").password("{noop}" + PASSWORD).roles("USER").build());
  }
}
