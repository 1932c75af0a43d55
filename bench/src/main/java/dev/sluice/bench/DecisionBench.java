package dev.sluice.bench;

import dev.sluice.core.Limiter;
import dev.sluice.store.MemoryStore;
import java.util.Set;
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
  /**
   * Ids of bench.yaml rules to leave out, comma-separated, to see what one rule costs: e.g. {@code
   * -p drop=global} shows the price of the one cell every request locks.
   */
  @Param({"none"})
  public String drop;

  private Limiter limiter;

  @Override
  protected void build() throws Exception {
    limiter =
        BenchConfig.limiter(
            "bench.yaml", BenchConfig.store(MemoryStore.DEFAULT_MAX_KEYS), Set.of(drop.split(",")));
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
    return true;
  }
}
