package dev.sluice.bench;

import dev.sluice.core.Limiter;
import dev.sluice.http.Enforcer;
import dev.sluice.metrics.Metrics;
import dev.sluice.store.Clock;
import dev.sluice.store.MemoryStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * What the agent and the Filter run per request with the memory store, short of the servlet calls:
 * {@link Enforcer#admit} with AgentLoad's rule ({@code admit.yaml}: one token bucket keyed by ip,
 * never denying) and metrics on, its headers written into a {@link BenchExchange}. With one key
 * every request is the same client, as under AgentLoad, where 32 request threads take turns on one
 * key; run it with {@code -t 32} to see that contention on two cores.
 */
public class AdmitBench extends KeyedBench {
  private Enforcer enforcer;

  @Override
  protected void build() throws Exception {
    enforcer = enforcer();
  }

  /** The Filter's or the agent's enforcer, with AgentLoad's rule on a memory store. */
  static Enforcer enforcer() throws Exception {
    MemoryStore store = BenchConfig.store(MemoryStore.DEFAULT_MAX_KEYS);
    Limiter limiter = new Limiter(store, new Metrics(Clock.SYSTEM::micros));
    limiter.apply(BenchConfig.rules("admit.yaml", UnaryOperator.identity(), Set.of()));
    return new Enforcer(limiter);
  }

  @Override
  protected boolean take(int i) {
    return admit(enforcer, Identities.ipv4(i));
  }

  /** One request from {@code ip}, as wrk sends it; true if admitted with its headers. */
  static boolean admit(Enforcer enforcer, String ip) {
    BenchExchange exchange =
        new BenchExchange(
            new FixedRequest("GET", "/api/hello", ip, "Host", "127.0.0.1", "User-Agent", "wrk"));
    try {
      return enforcer.admit(exchange) && exchange.header(1) != null;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  protected boolean expectAllowed() {
    return true;
  }
}
