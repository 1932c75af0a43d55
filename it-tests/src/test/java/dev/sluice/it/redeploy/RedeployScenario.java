package dev.sluice.it.redeploy;

import static dev.sluice.it.Http.REMAINING;
import static dev.sluice.it.Http.assertRejected;
import static dev.sluice.it.Http.number;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.it.agent.AgentContainer;
import dev.sluice.it.agent.AgentWebApp;
import dev.sluice.it.redeploy.RedeployingTomcat.Figures;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;

/**
 * A web app with Sluice's web.xml Filter in its WEB-INF/lib, deployed and undeployed twenty times
 * in one Tomcat, as a busy CI or an operator's hot redeploys would: each time it limits (so its
 * store was used), and nothing of it may stay behind. Tomcat's leak detection must report nothing
 * (no thread it started still running, no ThreadLocal of its classes on a request thread), every
 * undeployed app's class loader must be collected, and the JVM's threads, open files and heap after
 * a full collection must not grow from the fifth undeploy to the twentieth. Each concrete class
 * names the Tomcat (one JVM for all its tests) and the stores.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class RedeployScenario {
  private static final int DEPLOYS = 20;
  private static final int WARM_UP = 5;

  /**
   * What the heap may wander between two full collections with nothing leaked: up to 2 MB was seen
   * (1.3 MB down as often as up). A deployed app holds 0.4 MB (memory store) to 1.5 MB (Redis)
   * more than none, so fifteen leaked would hold 6 MB at the very least.
   */
  private static final long HEAP_SLACK_BYTES = 4L << 20;

  private RedeployingTomcat tomcat;

  abstract AgentContainer container();

  @BeforeAll
  void startTomcat() throws Exception {
    tomcat = RedeployingTomcat.start(container());
  }

  @AfterAll
  void stopTomcat() throws Exception {
    if (tomcat != null) {
      tomcat.close();
    }
  }

  /** Twenty deploys of an app whose rules keep their counts in {@code store} (YAML, one line). */
  void redeploysLeavingNothing(String store) throws Exception {
    AgentWebApp app =
        AgentWebApp.create(container(), rules(store), AgentWebApp.Part.SLUICE_FILTER);
    int logged = tomcat.output().length();
    try {
      Figures warm = null;
      for (int deploy = 1; deploy <= DEPLOYS; deploy++) {
        tomcat.deploy(app);
        try {
          assertLimits(deploy);
        } finally {
          tomcat.undeploy();
        }
        if (deploy == WARM_UP) {
          warm = tomcat.measure();
        }

      }
      Figures last = tomcat.measure();
      System.out.printf(
          "%s, %s: after %d deploys %s, after %d %s%n",
          getClass().getSimpleName(), store, WARM_UP, warm, DEPLOYS, last);
      assertThat(tomcat.output().substring(logged))
          .as("what Tomcat logged while the app came and went")
          .doesNotContain("appears to have started a thread")
          .doesNotContain("ThreadLocal")
          .doesNotContain("memory leak");
      assertThat(warm.loadersAlive()).as("class loaders of the first apps alive").isZero();
      assertThat(last.loadersAlive()).as("class loaders of all twenty apps alive").isZero();
      assertThat(last.threads()).as("threads").isLessThanOrEqualTo(warm.threads());
      assertThat(last.openFiles()).as("open files").isLessThanOrEqualTo(warm.openFiles());
      assertThat(last.heapBytes())
          .as("heap after a full collection")
          .isLessThan(warm.heapBytes() + HEAP_SLACK_BYTES);
    } finally {
      app.delete();
    }
  }

  /** Two requests allowed, the third denied, from a client new to this deploy. */
  private void assertLimits(int deploy) throws Exception {
    String ip = "10.40." + deploy + ".1";
    for (int i = 1; i <= 2; i++) {
      assertThat(number(tomcat.http().get("/app/api/hello", ip), REMAINING))
          .as("deploy %d, left after request %d", deploy, i)
          .isEqualTo(2 - i);
    }
    assertRejected(tomcat.http().get("/app/api/hello", ip), "hello");
  }

  private static String rules(String store) {
    return """
    store: %s
    client_ip:
      trusted_proxies: [127.0.0.1/32, "::1/128"]
    rules:
      - { id: hello, match: { path: /app/api/hello }, key: ip, limit: 2, window: 1h,
          on_error: fail_closed }
    """
        .formatted(store);
  }
}
