package dev.sluice.spring;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** An application with nothing of Sluice in it but the starter on its class path. */
@SpringBootApplication
@RestController
class TestApp {
  @GetMapping({"/api/**", "/open"})
  String hello() {
    return "hello";
  }
}
