package dev.sluice.bench;

import dev.sluice.metrics.Metrics;
import dev.sluice.metrics.RuleCounters;
import dev.sluice.store.Clock;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * What counting adds to one decision, alone: the part of {@link DecisionBench}'s {@code metrics=on}
 * that is not there with {@code off}. Short operations, so a shared machine's drift blurs them less
 * than it blurs a whole decision.
 */
@State(Scope.Thread)
@Fork(1)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class RuleCountersBench {
  private RuleCounters[] rules;
  private String[] clients;
  private int next;

  @Setup
  public void setUp() {
    rules = new Metrics(Clock.SYSTEM::micros).bindRules(Arrays.asList("api", "per-ip", "global"));
    clients = Identities.ipIdentities(100_000);
  }

  /** An admitted request of DecisionBench: its three rules count it as allowed. */
  @Benchmark
  public void allowedByThreeRules() {
    rules[0].countAllowed();
    rules[1].countAllowed();
    rules[2].countAllowed();
  }

  /** A flood from one client: the client is in the rule's top list already. */
  @Benchmark
  public void deniedSameClient() {
    rules[2].countDenied("global");
  }

  /** Denials of 100,000 clients in turn: each is new to the list and displaces one. */
  @Benchmark
  public void deniedNewClient() {
    rules[1].countDenied(clients[next]);
    next = next + 1 == clients.length ? 0 : next + 1;
  }
}
