package dev.sluice.bench;

import dev.sluice.core.Limiter;
import dev.sluice.metrics.Metrics;
import dev.sluice.store.Clock;
import dev.sluice.store.MemoryStore;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.openjdk.jmh.annotations.Param;

/**
 * A whole {@link Limiter#decide} with the rules of {@code bench.yaml}: path canonicalisation, rule
 * matching, client IP and API key resolution, identity escaping and an all-or-nothing acquire over
 * the three rules a typical API request matches ({@code api}, {@code per-ip}, {@code global}). With
 * many keys, request {@code i} comes from its own IP with its own API key.
 *
 * <p>Each call builds its request anew, as a container hands the limiter a request it has just
 * parsed: replaying 100k requests made up front would make the limiter pay cache misses on the
 * benchmark's own data. {@link RequestBuildBench} measures that building alone.
 */
public class DecisionBench extends KeyedBench {
  /** bench.yaml's defaults, which {@code outcome=deny} replaces by one request a day. */
  private static final String ALLOW_DEFAULTS = "  window: 1s\n  limit: 1000000000\n";

  private static final String DENY_DEFAULTS = "  window: 1d\n  limit: 1\n";

  /**
   * Ids of bench.yaml rules to leave out, comma-separated, to see what one rule costs: e.g. {@code
   * -p drop=global} shows the price of the one cell every request locks.
   */
  @Param({"none"})
  public String drop;

  /**
   * Whether the limiter counts each rule's decisions ({@code on}, as the Filter and the agent do)
   * or not ({@code off}): the price of the metrics, in the same run.
   */
  @Param({"on", "off"})
  public String metrics;

  /**
   * {@code deny} spends every limit (one request a day) before timing: a flood of denials, which
   * also feeds each denying rule's list of top limited clients. With {@code -p drop=global} the
   * denials are per client ({@code api}, {@code per-ip}), the list's worst case with many keys.
   */
  @Param({"allow"})
  public String outcome;

  private Limiter limiter;

  @Override
  protected void build() throws Exception {
    MemoryStore store = BenchConfig.store(MemoryStore.DEFAULT_MAX_KEYS);
    limiter =
        metrics.equals("on")
            ? new Limiter(store, new Metrics(Clock.SYSTEM::micros))
            : new Limiter(store);
    UnaryOperator<String> limits =
        expectAllowed() ? UnaryOperator.identity() : DecisionBench::denyAll;
    limiter.apply(BenchConfig.rules("bench.yaml", limits, Set.of(drop.split(","))));
  }

  private static String denyAll(String yaml) {
    if (!yaml.contains(ALLOW_DEFAULTS)) {
      throw new IllegalStateException("bench.yaml's defaults changed; outcome=deny needs them");
    }
    return yaml.replace(ALLOW_DEFAULTS, DENY_DEFAULTS);
  }

  /** {@code GET /api/v1/items/42} from client {@code i}, with its own IP and API key. */
  static FixedRequest apiCall(int i) {
    return new FixedRequest(
        "GET",
        "/api/v1/items/42",
        Identities.ipv4(i),
        "Host",
        "api.example.com",
        "User-Agent",
        "bench/1.0",
        "Accept",
        "application/json",
        "X-API-Key",
        Identities.apiKey(i));
  }

  @Override
  protected boolean take(int i) {
    return limiter.decide(apiCall(i)).allowed();
  }

  @Override
  protected boolean expectAllowed() {
    return outcome.equals("allow");
  }
}
