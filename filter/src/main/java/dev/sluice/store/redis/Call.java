package dev.sluice.store.redis;

import dev.sluice.algo.Quota;
import dev.sluice.store.Permit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The permits of one identity: one script call, since their keys share a hash tag. */
final class Call {
  final List<Permit> permits = new ArrayList<>(2);
  final List<String> keys = new ArrayList<>(2);

  /** Groups permits by identity, in the order the identities first appear. */
  static List<Call> byIdentity(List<Permit> permits, String[] keys) {
    if (permits.size() == 1) {
      Call call = new Call();
      call.add(permits.get(0), keys[0]);
      List<Call> one = new ArrayList<>(1);
      one.add(call);
      return one;
    }
    Map<String, Call> calls = new LinkedHashMap<>();
    for (int i = 0; i < keys.length; i++) {
      Permit permit = permits.get(i);
      Call call = calls.get(permit.identity());
      if (call == null) {
        call = new Call();
        calls.put(permit.identity(), call);
      }
      call.add(permit, keys[i]);
    }
    return new ArrayList<>(calls.values());
  }

  private void add(Permit permit, String key) {
    permits.add(permit);
    keys.add(key);
  }

  /** Where acquire.lua's ARGV holds the number of calls: one, until the Pipeliner bundles some. */
  static final int CALLS = 1;

  /** Where a lone call's ARGV holds the number of groups of alike requests. */
  static final int GROUPS = 3;

  /** Where a lone call's first group's request count is; its six values per key follow. */
  static final int FIRST_GROUP = 4;

  /**
   * ARGV of acquire.lua for this one request: the time argument, one call of these keys with one
   * group of one request, six values per key.
   */
  List<String> acquireArgs(String time) {
    List<String> args = oneRequest(time, permits.size());
    for (Permit p : permits) {
      Quota q = p.quota();
      addKey(
          args, ((RedisCounters) p.counters()).code, q.limit(), q.toleranceMicros(), q, p.cost());
    }
    return args;
  }

  /** The start of acquire.lua's ARGV for one request; its keys' values are to be added. */
  static List<String> oneRequest(String time, int keys) {
    List<String> args = new ArrayList<>(5 + 6 * keys);
    args.add(time);
    args.add("1"); // calls
    args.add(Integer.toString(keys));
    args.add("1"); // groups
    args.add("1"); // requests in the group
    return args;
  }

  /** Appends one key's six values of acquire.lua; the window and emission come from {@code q}. */
  static void addKey(
      List<String> args, String code, long limit, long tolerance, Quota q, long cost) {
    args.add(code);
    args.add(Long.toString(limit));
    args.add(Long.toString(q.windowMicros()));
    args.add(Long.toString(q.emissionMicros()));
    args.add(Long.toString(tolerance));
    args.add(Long.toString(cost));
  }

  /** ARGV of refund.lua: the time argument, then four values per key. */
  List<String> refundArgs(String time) {
    List<String> args = new ArrayList<>(1 + 4 * permits.size());
    args.add(time);
    for (Permit p : permits) {
      args.add(((RedisCounters) p.counters()).code);
      args.add(Long.toString(p.quota().windowMicros()));
      args.add(Long.toString(p.quota().emissionMicros()));
      args.add(Long.toString(p.cost()));
    }
    return args;
  }

  /** Fills each permit's verdict from acquire.lua's reply: four integers per key. */
  void fill(Object reply) {
    List<?> values = (List<?>) reply;
    for (int i = 0; i < permits.size(); i++) {
      permits
          .get(i)
          .verdict()
          .set(
              ((Long) values.get(4 * i)) == 1,
              (Long) values.get(4 * i + 1),
              (Long) values.get(4 * i + 2),
              (Long) values.get(4 * i + 3));
    }
  }

  boolean allowed() {
    for (Permit p : permits) {
      if (!p.verdict().allowed()) {
        return false;
      }
    }
    return true;
  }

  void rememberDenials(LocalDenials denials) {
    for (int i = 0; i < permits.size(); i++) {
      if (!permits.get(i).verdict().allowed()) {
        denials.remember(keys.get(i), permits.get(i).cost(), permits.get(i).verdict());
      }
    }
  }
}
