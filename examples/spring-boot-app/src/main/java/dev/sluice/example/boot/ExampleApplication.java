package dev.sluice.example.boot;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * A plain Spring Boot web app: embedded Tomcat, one controller, its own login (Spring Security), no
 * trace of Sluice.
 */
@SpringBootApplication
public class ExampleApplication {
  public static void main(String[] args) {
    SpringApplication.run(ExampleApplication.class, args);
  }
}
