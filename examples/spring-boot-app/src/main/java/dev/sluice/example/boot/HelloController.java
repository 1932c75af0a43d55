package dev.sluice.example.boot;

import java.security.Principal;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /api/hello}, the kind of endpoint a per-IP rule protects, {@code GET /api/me}, one a
 * per-user rule protects (users log in through {@link SecurityConfig}), and {@code GET /count}, how
 * many times the controller really answered either: a rejected request must never reach this class.
 */
@RestController
public class HelloController {
  private final AtomicInteger served = new AtomicInteger();

  @GetMapping("/api/hello")
  public String hello() {
    served.incrementAndGet();
    return "hello";
  }

  @GetMapping("/api/me")
  public String me(Principal user) {
    served.incrementAndGet();
    return "hello " + user.getName();
  }

  @GetMapping("/count")
  public int count() {
    return served.get();
  }
}
