package dev.sluice.it;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** A rule's delay through the Filter in a real container ({@link DelayChecks}). */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class DelayScenarios {
  private Deployment deployment;
  private Http http;

  /** The container under test; called once. */
  abstract Container container();

  @BeforeAll
  void start() throws Exception {
    deployment =
        Deployment.start(
            container(),
            "client_ip: { trusted_proxies: [127.0.0.1/32] }\nrules:\n" + DelayChecks.RULE);
    http = deployment.http();
  }

  @AfterAll
  void stop() throws Exception {
    if (deployment != null) {
      deployment.stop();
    }
  }

  @Test
  void aBurstIsServedAtTheRateUpToMaxWaitAndTheRestDeniedAtOnce() throws Exception {
    DelayChecks.assertABurstIsServedAtTheRateAndTheRestDeniedAtOnce(http, "10.9.0.1");
  }
}
