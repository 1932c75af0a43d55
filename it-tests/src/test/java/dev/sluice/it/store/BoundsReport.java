package dev.sluice.it.store;

import dev.sluice.algo.Algorithm;
import dev.sluice.algo.Quota;
import dev.sluice.algo.Verdict;
import dev.sluice.it.store.BoundsPlan.Group;
import dev.sluice.it.store.FleetBounds.Fault;
import dev.sluice.it.store.FleetBoundsMember.Decided;
import dev.sluice.store.Consistency;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * What a {@link FleetBounds} run admitted, by group and phase ({@link BoundsRow}), with the bounds
 * docs/design.md states. Phases: before the first fault; each fault, from Redis stopping to {@code
 * settleMillis} after it is back (only the identities it hit: every one for a pause, the killed
 * master's for a kill; a window belongs to the fault it overlaps); after each fault.
 */
final class BoundsReport {
  /**
   * The most a bucket's admissions decided by the instances' local shares ({@code fail_open}, while
   * Redis fails or a call outlived its timeout) may exceed the shares' bursts + their rates × t in
   * any interval t: one permit of rounding. Each instance's share is a bucket of its own (limit ÷
   * fleet size, burst ÷ fleet size, at least 1 each: docs/design.md, Local share), starting whole.
   */
  static final double SHARES_ROUNDING = 1;

  /** A phase: a fault (or null between faults), from and to in epoch µs. */
  record Span(String name, long from, long to, Fault fault) {}

  final BoundsPlan plan;
  final List<Fault> faults;
  final List<String> members;
  final double seconds;

  /** The first request's asking, epoch µs: instants are printed from it. */
  final long started;

  final List<Span> spans = new ArrayList<>();
  final Map<Group, Map<Span, BoundsRow>> rows = new LinkedHashMap<>();

  BoundsReport(
      BoundsPlan plan,
      List<Decided> decided,
      List<Fault> faults,
      int[] masterOfSlot,
      List<String> members,
      double seconds) {
    this.plan = plan;
    this.faults = faults;
    this.members = members;
    this.seconds = seconds;
    this.started = decided.stream().mapToLong(Decided::askedMicros).min().orElse(0);
    String after = "before the faults";
    long from = Long.MIN_VALUE;
    for (Fault fault : faults) {
      spans.add(new Span(after, from, fault.startMicros(), null));
      from = fault.backMicros() + plan.settleMillis() * 1000L;
      spans.add(new Span(fault.name(), fault.startMicros(), from, fault));
      after = "after: " + fault.name();
    }
    spans.add(new Span(after, from, Long.MAX_VALUE, null));
    List<Group> groups = plan.groups();
    groups.forEach(g -> rows.put(g, new LinkedHashMap<>()));
    Map<Long, List<Decided>> byIdentity =
        decided.stream()
            .collect(
                Collectors.groupingBy(
                    d -> (long) d.group() << 32 | d.identity(), TreeMap::new, Collectors.toList()));
    for (List<Decided> requests : byIdentity.values()) {
      requests.sort(Comparator.comparingLong(Decided::askedMicros));
      Group group = groups.get(requests.get(0).group());
      String identity = "ip=" + group.addresses().get(requests.get(0).identity());
      add(group, requests, masterOfSlot[ClusterStores.slotOf(identity)]);
    }
  }

  /** One identity's requests, in the order asked, its master serving it at {@code port}. */
  private void add(Group group, List<Decided> requests, int port) {
    Quota quota = plan.quota(group.hot());
    boolean[] exactly = replay(group.algorithm(), quota, requests);
    Map<Span, List<Integer>> byPhase = new LinkedHashMap<>();
    Map<Long, List<Integer>> byWindow = new TreeMap<>();
    for (int k = 0; k < requests.size(); k++) {
      Decided d = requests.get(k);
      if (group.algorithm() == Algorithm.FIXED_WINDOW) {
        byWindow.computeIfAbsent(d.window(), w -> new ArrayList<>()).add(k);
      } else {
        Span span = phaseOf(d.askedMicros(), d.askedMicros(), port);
        if (span != null) {
          byPhase.computeIfAbsent(span, s -> new ArrayList<>()).add(k);
        }
      }
    }
    byWindow.forEach(
        (w, ks) -> {
          long window = quota.windowMicros();
          Span span = phaseOf(w * window, (w + 1) * window - 1, port);
          if (span != null) {
            BoundsRow row = row(group, span);
            ks.forEach(k -> row.count(requests.get(k), exactly[k]));
            row.window(
                ks.stream().filter(k -> requests.get(k).allowed()).count(),
                quota.limit(),
                ks.stream().anyMatch(k -> requests.get(k).local()));
          }
        });
    byPhase.forEach(
        (span, ks) -> {
          BoundsRow row = row(group, span);
          ks.forEach(k -> row.count(requests.get(k), exactly[k]));
          row.bucket(
              ks.stream().map(requests::get).filter(Decided::allowed).toList(),
              quota,
              shares(group),
              ks.stream().anyMatch(k -> requests.get(k).local()));
        });
  }

  private BoundsRow row(Group group, Span span) {
    return rows.get(group).computeIfAbsent(span, s -> new BoundsRow());
  }

  /**
   * What an exact limiter would have decided for each request, in the order asked, at the instant
   * it was asked; a fixed window's request at an instant of the window the store counted it in (it
   * decided between asking and answering, which a stalled JVM may stretch across a boundary).
   */
  private static boolean[] replay(Algorithm algorithm, Quota quota, List<Decided> requests) {
    boolean[] allowed = new boolean[requests.size()];
    Verdict verdict = new Verdict();
    long first = 0;
    long second = 0;
    long window = quota.windowMicros();
    for (int k = 0; k < allowed.length; k++) {
      Decided d = requests.get(k);
      long at =
          algorithm == Algorithm.FIXED_WINDOW
              ? Math.min(
                  Math.max(d.askedMicros(), d.window() * window), (d.window() + 1) * window - 1)
              : d.askedMicros();
      algorithm.evaluate(first, second, at, quota, 1, verdict);
      allowed[k] = verdict.allowed();
      if (allowed[k]) {
        first = verdict.nextFirst();
        second = verdict.nextSecond();
      }
    }
    return allowed;
  }

  /**
   * The phase of what was decided from {@code from} to {@code to} for an identity on the master of
   * {@code port}: the fault it overlaps, if that fault hit it; else (null: left out) if it overlaps
   * another; else the span between faults it starts in.
   */
  private Span phaseOf(long from, long to, int port) {
    for (Span span : spans) {
      if (span.fault != null && from < span.to && to >= span.from) {
        int hit = span.fault.port();
        return hit == Fault.ALL || hit == port ? span : null;
      }
    }
    for (Span span : spans) {
      if (span.fault == null && from >= span.from && from < span.to) {
        return span;
      }
    }
    return null;
  }

  /**
   * The worst a window rule's row may reach, admitted ÷ limit: 1 for what Redis alone decided (and
   * a lease, counted in its window); while Redis fails ({@code redisFailing}), and for a window
   * with a local decision (a call that outlived its timeout), each instance adds its local share.
   */
  double worstBound(Group group, boolean redisFailing) {
    Quota quota = plan.quota(group.hot());
    int fleet = plan.fleetSize();
    return redisFailing
        ? (quota.limit() + fleet * quota.share(fleet).limit()) / (double) quota.limit()
        : 1;
  }

  /**
   * The most a bucket's admissions decided by Redis or a lease may exceed burst + rate × t in any
   * interval t, in every phase (they all came out of the one bucket in Redis; a local share's
   * admissions are judged apart, {@link #SHARES_ROUNDING}): one permit of rounding (an interval's
   * ends are instants the decisions were asked and answered at, and a rate of µs), and local-first
   * rate × sync more (a lease's permit is spent up to sync after it left the bucket:
   * docs/design.md, Local-first decisions). Outside the faults, where no share decides, that is the
   * fleet's bound: B + r × t + 1, local-first B + r × (t + s) + 1.
   */
  double excessBound(Group group) {
    Quota quota = plan.quota(group.hot());
    Consistency consistency = group.consistency();
    double overSync =
        consistency.isExact() ? 0 : consistency.syncMicros() / (double) quota.emissionMicros();
    return 1 + overSync;
  }

  /** The fleet's local shares of a bucket rule as one bucket: their bursts and rates summed. */
  Quota shares(Group group) {
    Quota quota = plan.quota(group.hot());
    int fleet = plan.fleetSize();
    Quota share = quota.share(fleet);
    return Quota.of(fleet * share.limit(), share.windowMicros(), fleet * share.burst());
  }

  /**
   * The fewest admissions a row outside the faults may have: {@link #floor} × allowed, less a
   * bucket's {@link #slack} for each identity, less what leases strand in each window ({@link
   * #stranded}).
   */
  double least(Group group, BoundsRow row) {
    return floor(group) * row.allowed - slack(group) * row.units - stranded(group) * row.windows;
  }

  /**
   * The least admitted ÷ allowed outside the faults, exact: one permit a window of the limit (a
   * call that outlived its timeout on this busy machine is decided locally).
   */
  double floor(Group group) {
    return 1 - 1.0 / plan.quota(group.hot()).limit();
  }

  /**
   * Local-first, the permits the fleet may hold unspent in a window (a bucket: in each window's
   * length of time), as docs/design.md (Local-first decisions) states it: F × (c + ⌊c / 2⌋), c =
   * max(1, ⌊L / 2F⌋), each instance a grant and the half left of the one before. Exact: none.
   */
  double stranded(Group group) {
    if (group.consistency().isExact()) {
      return 0;
    }
    long c = Math.max(1, plan.quota(group.hot()).limit() / (2L * plan.fleetSize()));
    return plan.fleetSize() * (c + c / 2);
  }

  /**
   * A bucket's permits either way at each end of a phase: the store decided between asking and
   * answering (up to the timeout), the replay at the asking, so an end may shift by rate × timeout
   * and one permit of rounding. A window's requests are replayed in their window: none.
   */
  double slack(Group group) {
    if (group.algorithm() == Algorithm.FIXED_WINDOW) {
      return 0;
    }
    return 2 * (1 + plan.timeoutMillis() * 1000.0 / plan.quota(group.hot()).emissionMicros());
  }

  void print(PrintStream out) {
    out.printf(
        Locale.ROOT,
        "%n%d instances in %d JVMs (fleet size %d), Redis Cluster 3 masters + 3 replicas; %s;"
            + " hot: %d per %d ms at %.1f ×; near: %,d identities a group, %d per %d ms at %.2f ×;"
            + " skewed: %.0f %% to one instance; run took %.0f s%n",
        plan.instances(),
        plan.jvms(),
        plan.fleetSize(),
        plan.consistencies(),
        plan.hotLimit(),
        plan.hotWindowMillis(),
        plan.hotDemand(),
        plan.nearIdentities(),
        plan.nearLimit(),
        plan.nearWindowMillis(),
        plan.nearDemand(),
        plan.skew() * 100,
        seconds);
    members.forEach(m -> out.println("  " + m));
    faults.forEach(
        f ->
            out.printf(
                Locale.ROOT,
                "  %s: Redis back %.1f s after%n",
                f.name(),
                (f.backMicros() - f.startMicros()) / 1e6));
    out.println();
    out.println(
        "| group | phase | identity-windows (a bucket: identities) | requests | admitted |"
            + " decided locally | allowed exactly | admitted ÷ allowed | worst ÷ limit (excess) |"
            + " bucket excess: Redis and leases / local shares | bound: worst (a bucket: excess"
            + " Redis and leases / local shares) / least admitted |");
    out.println("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |");
    rows.forEach(
        (group, phases) -> {
          for (Span span : spans) {
            BoundsRow row = phases.get(span);
            if (row != null) {
              String worst =
                  group.algorithm() == Algorithm.FIXED_WINDOW
                      ? String.format(Locale.ROOT, "%.2f", worstBound(group, span.fault != null))
                      : String.format(
                          Locale.ROOT, "+%.1f / +%.1f", excessBound(group), SHARES_ROUNDING);
              String least =
                  span.fault == null ? String.format(Locale.ROOT, "%.0f", least(group, row)) : "–";
              out.printf(
                  Locale.ROOT,
                  "| %s | %s | %s |%n",
                  group.name(),
                  span.name,
                  row.cells(worst + " / " + least));
            }
          }
        });
    rows.forEach(
        (group, phases) ->
            phases.forEach(
                (span, row) -> {
                  BoundsRow.Interval w = row.worstByRedisInterval;
                  if (w != null) {
                    out.printf(
                        Locale.ROOT,
                        "  %s, %s: worst interval of Redis and leases: %d admitted in %.1f ms"
                            + " from %+.3f s, %+.2f over burst + rate × t%n",
                        group.name(),
                        span.name,
                        w.count(),
                        w.lengthMicros() / 1e3,
                        (w.fromMicros() - started) / 1e6,
                        w.excess());
                  }
                }));
  }
}
