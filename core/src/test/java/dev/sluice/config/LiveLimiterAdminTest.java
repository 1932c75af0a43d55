package dev.sluice.config;

import static dev.sluice.store.ManualClock.SECOND;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.TestRequest;
import dev.sluice.http.FakeExchange;
import dev.sluice.store.ManualClock;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The admin endpoint as a live file sets it up, through reloads. */
class LiveLimiterAdminTest {
  private static final String TOKEN = "s3cret-token-0123456789";

  /** An ingress in 10.0.0.0/24 in front of the app; monitoring elsewhere in the cluster. */
  private static final String CLUSTER =
      "client_ip: { trusted_proxies: [10.0.0.0/24] }\n"
          + "admin: { allow: [10.0.0.0/8], token: "
          + TOKEN
          + " }\n"
          + "rules: [{ id: all, match: { path: /** }, key: ip, limit: 5, window: 1m }]\n";

  @TempDir Path dir;
  private final ManualClock clock = new ManualClock(1_800_000_000L * SECOND);

  private Path write(String yaml) throws Exception {
    Path file = dir.resolve("ratelimit.yaml");
    Files.writeString(file, yaml);
    return file;
  }

  private static boolean answered(LiveLimiter live, TestRequest request) throws Exception {
    request.header("Authorization", "Bearer " + TOKEN);
    return live.admin().answered(new FakeExchange(request));
  }

  /** A client of the internet, forwarded by the ingress. */
  private static TestRequest throughTheIngress() {
    return TestRequest.get("/_sluice/status")
        .from("10.0.0.5")
        .header("X-Forwarded-For", "203.0.113.9");
  }

  @Test
  void theKillSwitchLeavesWhomTheEndpointTrustsAlone() throws Exception {
    try (LiveLimiter live =
        LiveLimiter.manual(ConfigSource.of(write(CLUSTER).toString(), null), clock)) {
      assertThat(answered(live, throughTheIngress())).as("enabled").isFalse();
      assertThat(answered(live, TestRequest.get("/_sluice/status").from("10.1.2.3"))).isTrue();

      write("enabled: false\n" + CLUSTER);
      assertThat(live.reload()).isTrue();
      assertThat(answered(live, throughTheIngress()))
          .as("disabled: the ingress still speaks for the client behind it")
          .isFalse();
      assertThat(answered(live, TestRequest.get("/_sluice/status").from("10.1.2.3"))).isTrue();
    }
  }
}
