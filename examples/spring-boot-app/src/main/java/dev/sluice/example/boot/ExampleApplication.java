package dev.sluice.example.boot;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * A plain Spring Boot web app: embedded Tomcat, one controller, its own login (Spring Security), no
 * trace of Sluice. it-tests/apps build this class and the controller, without the login, on Spring
 * Boot 2.7 and on Undertow: keep them to APIs both Boots share.
 */
@SpringBootApplication
public class ExampleApplication {
  public static void main(String[] args) {
    SpringApplication.run(ExampleApplication.class, args);
  }
}
