package dev.sluice.admin;

import dev.sluice.config.ConfigParser;
import dev.sluice.config.InvalidConfigException;
import dev.sluice.core.Cidr;
import dev.sluice.core.Limiter;
import dev.sluice.core.Rules;
import dev.sluice.core.TestRequest;
import dev.sluice.http.FakeExchange;
import dev.sluice.metrics.Metrics;
import dev.sluice.store.ManualClock;
import dev.sluice.store.MemoryStore;
import java.util.Arrays;
import java.util.Collections;
import java.util.Map;
import org.yaml.snakeyaml.Yaml;

/** An endpoint over a limiter of rules from YAML, on a clock the test moves. */
final class AdminTesting {
  static final String TOKEN = "s3cret-token-0123456789";

  final ManualClock clock = new ManualClock(1_800_000_000_000_000L);
  final Metrics metrics = new Metrics(clock::micros);
  final Limiter limiter = new Limiter(new MemoryStore(clock, 1000, 0), metrics);
  final AdminEndpoint admin = new AdminEndpoint(limiter, metrics, clock, null);

  AdminTesting(String yaml) {
    limiter.apply(rules(yaml));
  }

  static Rules rules(String yaml) {
    try {
      return ConfigParser.parse("ratelimit.yaml", yaml, Collections.<String, String>emptyMap())
          .rules();
    } catch (InvalidConfigException e) {
      throw new AssertionError(e.getMessage(), e);
    }
  }

  AdminTesting allow(String token, String... cidrs) {
    Cidr[] allow = new Cidr[cidrs.length];
    for (int i = 0; i < cidrs.length; i++) {
      allow[i] = Cidr.parse(cidrs[i]);
    }
    admin.configure(
        new AdminSettings("/_sluice", Arrays.asList(allow), token, limiter.rules().clientIp()));
    return this;
  }

  /** A GET of {@code path} from {@code ip}, with the token when not null. */
  static FakeExchange get(String path, String ip, String token) {
    TestRequest request = request(path, ip);
    if (token != null) {
      request.header("Authorization", "Bearer " + token);
    }
    return new FakeExchange(request);
  }

  /** A GET of {@code path} from {@code ip} naming this host, as a client on this host does. */
  static TestRequest request(String path, String ip) {
    return TestRequest.get(path).from(ip).header("Host", "localhost:8080");
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> json(String text) {
    return (Map<String, Object>) new Yaml().load(text);
  }
}
