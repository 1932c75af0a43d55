package dev.sluice.it.store;

import dev.sluice.it.store.BoundsPlan.Group;
import java.util.List;

/**
 * The whole fleet's requests of a {@link BoundsPlan}, in time order. Each group's identities ask in
 * turn, evenly spaced, so each identity asks every window / (demand × limit); every JVM walks the
 * same schedule and sends the requests routed to its own instances.
 */
final class Schedule {
  /** The fraction of the golden ratio: consecutive multiples of it spread evenly over [0, 1). */
  private static final double GOLDEN = 0.6180339887498949;

  /** Request {@code n} of group {@code group}: identity {@code identity}, to {@code instance}. */
  record Request(int group, int identity, int instance, long atMicros) {}

  private final BoundsPlan plan;
  private final List<Group> groups;
  private final long endMicros;
  private final double[] firstMicros;
  private final double[] spacingMicros;
  private final long[] next;

  Schedule(BoundsPlan plan, List<Group> groups, long startMicros, long endMicros) {
    this.plan = plan;
    this.groups = groups;
    this.endMicros = endMicros;
    this.firstMicros = new double[groups.size()];
    this.spacingMicros = new double[groups.size()];
    this.next = new long[groups.size()];
    for (Group group : groups) {
      int g = group.index();
      double perIdentity =
          plan.quota(group.hot()).windowMicros()
              / ((group.hot() ? plan.hotDemand() : plan.nearDemand())
                  * plan.quota(group.hot()).limit());
      spacingMicros[g] = perIdentity / group.addresses().size();
      firstMicros[g] = startMicros + spacingMicros[g] * g / groups.size();
    }
  }

  /** The next request of the fleet, or null once every group's next one is past the end. */
  Request next() {
    int best = -1;
    double at = endMicros;
    for (int g = 0; g < next.length; g++) {
      double t = firstMicros[g] + next[g] * spacingMicros[g];
      if (t < at) {
        at = t;
        best = g;
      }
    }
    if (best < 0) {
      return null;
    }
    long n = next[best]++;
    Group group = groups.get(best);
    int identities = group.addresses().size();
    int identity = (int) (n % identities);
    long round = n / identities;
    return new Request(best, identity, instanceOf(group.skewed(), n, round + identity), (long) at);
  }

  /**
   * The instance request {@code n} of a group goes to: its identity's {@code turn} round-robin, or
   * skewed, {@code skew} of the requests to instance 0 and the rest spread evenly over the others.
   */
  private int instanceOf(boolean skewed, long n, long turn) {
    int instances = plan.instances();
    if (!skewed || instances == 1) {
      return (int) (turn % instances);
    }
    double u = n * GOLDEN % 1;
    if (u < plan.skew()) {
      return 0;
    }
    int other = (int) ((u - plan.skew()) / (1 - plan.skew()) * (instances - 1));
    return 1 + Math.min(instances - 2, other);
  }
}
