package dev.sluice.bench;

import dev.sluice.config.ConfigParser;
import dev.sluice.config.InvalidConfigException;
import dev.sluice.core.Limiter;
import dev.sluice.core.Rule;
import dev.sluice.core.Rules;
import dev.sluice.store.Clock;
import dev.sluice.store.MemoryStore;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.UnaryOperator;

/** Builds a real {@link Limiter} from a ratelimit.yaml kept in the jar, as the Filter would. */
final class BenchConfig {
  private BenchConfig() {}

  /** A limiter with the rules of resource {@code name} on {@code store}. */
  static Limiter limiter(String name, MemoryStore store) throws InvalidConfigException {
    Limiter limiter = new Limiter(store);
    limiter.apply(rules(name, UnaryOperator.identity(), Set.of()));
    return limiter;
  }

  /**
   * The rules of resource {@code name}, its text rewritten by {@code edit} first, less the rules
   * whose ids are in {@code drop}.
   */
  static Rules rules(String name, UnaryOperator<String> edit, Set<String> drop)
      throws InvalidConfigException {
    Rules rules = ConfigParser.parse(name, edit.apply(read(name))).rules();
    List<Rule> kept = new ArrayList<>(rules.rules());
    kept.removeIf(rule -> drop.contains(rule.id()));
    return new Rules(
        kept,
        rules.excludes(),
        rules.clientIp(),
        rules.tiers(),
        rules.apiKeyHeader(),
        rules.cors());
  }

  /**
   * A store that holds up to {@code maxKeys} identities and never sweeps: a sweep would drop keys
   * between the fill and the timing, and its thread would compete with the measured ones.
   */
  static MemoryStore store(long maxKeys) {
    return new MemoryStore(Clock.SYSTEM, maxKeys, 0);
  }

  private static String read(String name) {
    try (InputStream in = BenchConfig.class.getResourceAsStream("/" + name)) {
      if (in == null) {
        throw new IllegalStateException(name + " is missing from the benchmarks jar");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
