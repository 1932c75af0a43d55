package dev.sluice.example.boot;

import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /api/hello}, the kind of endpoint a per-IP rule protects, and {@code GET /count}, how
 * many times the controller really answered it: a rejected request must never reach this class.
 */
@RestController
public class HelloController {
  private final AtomicInteger served = new AtomicInteger();

  @GetMapping("/api/hello")
  public String hello() {
    served.incrementAndGet();
    return "hello";
  }

  @GetMapping("/count")
  public int count() {
    return served.get();
  }
}
