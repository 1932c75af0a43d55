package dev.sluice.it.store;

import dev.sluice.algo.Algorithm;
import dev.sluice.core.Decision;
import dev.sluice.core.Limiter;
import dev.sluice.it.store.BoundsPlan.Group;
import dev.sluice.it.store.FleetSimulationMember.Request;
import dev.sluice.store.Clock;
import dev.sluice.store.Permit;
import dev.sluice.store.redis.RedisStore;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * One JVM of {@link FleetBounds}: its share of the plan's instances, each a {@link Limiter} on a
 * {@link RedisStore} of its own. Every JVM walks the whole fleet's schedule ({@link Schedule}) and
 * sends the requests routed to its instances, open loop, from a pool of {@code threadsPerJvm}
 * threads; each decision is written down ({@link Decided}).
 *
 * <p>Arguments: {@link BoundsPlan#memberArgs}, then the JVM's number and the file to write. Prints
 * {@code ready}, waits for {@code go <epoch millis>} on stdin, sends its traffic for the planned
 * seconds, writes the decisions and prints {@code done ...}.
 */
public final class FleetBoundsMember {
  private FleetBoundsMember() {}

  public static void main(String[] args) throws Exception {
    BoundsPlan plan = BoundsPlan.fromMemberArgs(args);
    int jvm = Integer.parseInt(args[args.length - 2]);
    Path out = Path.of(args[args.length - 1]);
    int first = jvm * plan.instances() / plan.jvms();
    int count = (jvm + 1) * plan.instances() / plan.jvms() - first;
    List<RedisStore> stores = new ArrayList<>();
    List<Limiter> limiters = new ArrayList<>();
    try {
      for (int i = 0; i < count; i++) {
        limiters.add(
            FleetSimulationMember.openInstance(
                plan.seeds(),
                plan.timeoutMillis(),
                plan.poolSize(),
                plan.prefix(),
                plan.fleetSize(),
                plan.rules(),
                stores));
      }
      List<Group> groups = plan.groups();
      for (int round = 0; round < 20; round++) {
        for (Limiter limiter : limiters) {
          for (Group group : groups) {
            limiter.decide(new Request(group.requestPath(), "192.0.2." + round));
          }
        }
      }
      System.out.println("ready " + count + " instances from " + first);
      Sender sender = new Sender(plan, groups, limiters, first);
      sender.run(FleetSimulationMember.awaitGo());
      sender.write(out);
      System.out.printf(
          "done decisions %d local %d late %d errors %d%n",
          sender.decided.size(), sender.local.get(), sender.late.get(), sender.errors.get());
      System.out.flush();
    } finally {
      stores.forEach(RedisStore::close);
    }
  }

  /** One decision: who asked, when (asked, answered: epoch µs), what came of it. */
  record Decided(
      int group,
      int identity,
      long askedMicros,
      long answeredMicros,
      boolean allowed,
      boolean local,
      long window) {
    String line() {
      return group
          + " "
          + identity
          + " "
          + askedMicros
          + " "
          + answeredMicros
          + " "
          + (allowed ? 1 : 0)
          + " "
          + (local ? 1 : 0)
          + " "
          + window;
    }

    static Decided parse(String line) {
      String[] f = line.split(" ");
      return new Decided(
          Integer.parseInt(f[0]),
          Integer.parseInt(f[1]),
          Long.parseLong(f[2]),
          Long.parseLong(f[3]),
          f[4].equals("1"),
          f[5].equals("1"),
          Long.parseLong(f[6]));
    }
  }

  /** Sends this JVM's requests at their planned instants and keeps what was decided. */
  private static final class Sender {
    private final BoundsPlan plan;
    private final List<Group> groups;
    private final List<Limiter> limiters;
    private final int firstInstance;
    final Queue<Decided> decided = new ConcurrentLinkedQueue<>();
    final AtomicLong local = new AtomicLong();

    /** Requests decided more than 100 ms after their planned instant (the machine fell behind). */
    final AtomicLong late = new AtomicLong();

    /** Decisions that threw: none is expected; the first is printed. */
    final AtomicLong errors = new AtomicLong();

    Sender(BoundsPlan plan, List<Group> groups, List<Limiter> limiters, int firstInstance) {
      this.plan = plan;
      this.groups = groups;
      this.limiters = limiters;
      this.firstInstance = firstInstance;
    }

    void run(long startMillis) throws InterruptedException {
      long startMicros = startMillis * 1000;
      long endMicros = startMicros + plan.seconds() * 1_000_000L;
      AtomicInteger threads = new AtomicInteger();
      ExecutorService workers =
          Executors.newFixedThreadPool(
              plan.threadsPerJvm(),
              r -> {
                Thread t = new Thread(r, "fleet-bounds-" + threads.getAndIncrement());
                t.setDaemon(true);
                return t;
              });
      Schedule schedule = new Schedule(plan, groups, startMicros, endMicros);
      try {
        for (Schedule.Request next = schedule.next(); next != null; next = schedule.next()) {
          Schedule.Request r = next;
          int instance = r.instance() - firstInstance;
          if (instance < 0 || instance >= limiters.size()) {
            continue;
          }
          long wait = r.atMicros() - Clock.SYSTEM.micros();
          if (wait > 0) {
            LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(wait));
          }
          workers.execute(() -> decide(r, limiters.get(instance)));
        }
      } finally {
        workers.shutdown();
      }
      if (!workers.awaitTermination(30, TimeUnit.SECONDS)) {
        throw new IllegalStateException("decisions still run 30 s after the end");
      }
    }

    private void decide(Schedule.Request r, Limiter limiter) {
      Group group = groups.get(r.group());
      String address = group.addresses().get(r.identity());
      long asked = Clock.SYSTEM.micros();
      if (asked - r.atMicros() > 100_000) {
        late.incrementAndGet();
      }
      try {
        Decision decision = limiter.decide(new Request(group.requestPath(), address));
        long answered = Clock.SYSTEM.micros();
        Permit permit = decision.permit(group.rule());
        if (permit == null || !permit.identity().equals("ip=" + address)) {
          throw new IllegalStateException(group.name() + " did not count " + address);
        }
        boolean allowed = permit.verdict().allowed();
        long window = -1;
        if (group.algorithm() == Algorithm.FIXED_WINDOW) {
          long untilEnd =
              allowed ? permit.verdict().resetMicros() : permit.verdict().retryAfterMicros();
          long windowMicros = plan.quota(group.hot()).windowMicros();
          window =
              FleetSimulationMember.windowEnding(
                      asked + untilEnd, answered + untilEnd, windowMicros)
                  - 1;
        }
        if (permit.decidedLocally()) {
          local.incrementAndGet();
        }
        decided.add(
            new Decided(
                r.group(),
                r.identity(),
                asked,
                answered,
                allowed,
                permit.decidedLocally(),
                window));
      } catch (RuntimeException e) {
        if (errors.getAndIncrement() == 0) {
          e.printStackTrace(System.out);
        }
      }
    }

    void write(Path out) throws Exception {
      try (PrintWriter writer =
          new PrintWriter(Files.newBufferedWriter(out, StandardCharsets.UTF_8))) {
        decided.forEach(d -> writer.println(d.line()));
      }
    }
  }
}
