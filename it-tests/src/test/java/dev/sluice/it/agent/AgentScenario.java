package dev.sluice.it.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.it.Http;
import dev.sluice.it.jvm.ChildJvm;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.TestInstance;
import org.opentest4j.TestAbortedException;

/**
 * One scenario of the agent in one container: the container runs in a JVM of its own, started once
 * per class with {@code -javaagent}, serving an app that knows nothing of Sluice. Each concrete
 * class names the container; its scenario base class, the rules and the app's parts.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class AgentScenario {
  AgentWebApp app;
  AgentServer server;
  Http http;

  /** Why this class's tests cannot run on this machine (a JDK it needs is missing), or null. */
  private TestAbortedException notHere;

  abstract AgentContainer container();

  abstract String rules();

  /**
   * A config whose clients are named by X-Forwarded-For (the test's requests all come from
   * loopback, a trusted proxy here), with the {@code hello} rule on /api/hello at {@code
   * helloLimit} per client in an hour, then {@code more} (further top-level YAML).
   */
  static String helloRules(int helloLimit, String more) {
    return "client_ip:\n"
        + "  trusted_proxies: [127.0.0.1/32, \"::1/128\"]\n"
        + "rules:\n"
        + "  - { id: hello, match: { path: /api/hello }, key: ip, limit: "
        + helloLimit
        + ", window: 1h, algorithm: token_bucket }\n"
        + more;
  }

  AgentWebApp.Part[] parts() {
    return new AgentWebApp.Part[0];
  }

  /** The {@code java} launcher the container runs on: this JVM's, unless a class says other. */
  String java() {
    return ChildJvm.java();
  }

  @BeforeAll
  void start() throws Exception {
    String launcher;
    try {
      launcher = java();
    } catch (TestAbortedException e) {
      notHere = e; // each test reports it as skipped, rather than the class running none
      return;
    }
    app = AgentWebApp.create(container(), rules(), parts());
    server = AgentServer.start(container(), app, launcher);
    http = server.http();
  }

  @BeforeEach
  void runsHere() {
    if (notHere != null) {
      throw notHere;
    }
  }

  /**
   * The agent must have said it started, and never that something failed, nor made the JVM warn
   * (Java 24 and later warn on the console when a library calls sun.misc.Unsafe).
   */
  @AfterAll
  void stop() throws Exception {
    try {
      if (server != null) {
        String output = server.jvm().output();
        server.close();
        assertThat(output).contains("Sluice: agent started in ");
        assertThat(output)
            .doesNotContain("Sluice: could not instrument")
            .doesNotContain("because the agent failed")
            .doesNotContain("the agent could not start")
            .doesNotContain("sun.misc.Unsafe");
      }
    } finally {
      if (app != null) {
        app.delete();
      }
    }
  }
}
