package dev.sluice.store.redis;

import dev.sluice.algo.Quota;
import dev.sluice.store.Permit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import redis.clients.jedis.UnifiedJedis;

/** The permits of one identity: one script call, since their keys share a hash tag. */
final class IdentityCall {
  final List<Permit> permits;
  final List<String> keys;

  /** acquire.lua's reply, once {@link #fill filled}: a refund reads the takes from it. */
  private List<?> reply;

  private IdentityCall(List<Permit> permits, List<String> keys) {
    this.permits = permits;
    this.keys = keys;
  }

  /**
   * Groups permits by identity, in the order the identities first appear. A request of one identity
   * (nearly all) is one call over the request's own lists.
   */
  static List<IdentityCall> byIdentity(List<Permit> permits, String[] keys) {
    String identity = permits.get(0).identity();
    boolean one = true;
    for (int i = 1; i < keys.length && one; i++) {
      one = permits.get(i).identity().equals(identity);
    }
    if (one) {
      return Collections.singletonList(new IdentityCall(permits, Arrays.asList(keys)));
    }
    Map<String, IdentityCall> calls = new LinkedHashMap<>();
    for (int i = 0; i < keys.length; i++) {
      Permit permit = permits.get(i);
      IdentityCall call = calls.get(permit.identity());
      if (call == null) {
        call = new IdentityCall(new ArrayList<>(2), new ArrayList<>(2));
        calls.put(permit.identity(), call);
      }
      call.permits.add(permit);
      call.keys.add(keys[i]);
    }
    return new ArrayList<>(calls.values());
  }

  /** One permit, decided as if alone: a call of its own, whatever its identity's other rules. */
  static IdentityCall alone(Permit permit, String key) {
    return new IdentityCall(Collections.singletonList(permit), Collections.singletonList(key));
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
      addKey(args, ((RedisCounters) p.counters()).terms(p.quota()), p.cost());
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

  /**
   * The first five of a key's six values of acquire.lua, all but the cost: its algorithm's code,
   * limit, window, emission and tolerance; the window and emission come from {@code q}.
   */
  static List<String> terms(String code, long limit, long tolerance, Quota q) {
    return Collections.unmodifiableList(
        Arrays.asList(
            code,
            Long.toString(limit),
            Long.toString(q.windowMicros()),
            Long.toString(q.emissionMicros()),
            Long.toString(tolerance)));
  }

  /** Appends one key's six values of acquire.lua: its {@link #terms} and the cost. */
  static void addKey(List<String> args, List<String> terms, long cost) {
    args.addAll(terms);
    args.add(cost == 1 ? "1" : Long.toString(cost));
  }

  /**
   * ARGV of refund.lua for this allowed call: the time argument, then five values per key, the last
   * its take as acquire.lua replied it.
   */
  List<String> refundArgs(String time) {
    return refundArgs(time, permits);
  }

  /** ARGV of refund.lua for {@code permits}, each allowed by acquire.lua with its take recorded. */
  static List<String> refundArgs(String time, List<Permit> permits) {
    List<String> args = new ArrayList<>(1 + 5 * permits.size());
    args.add(time);
    for (Permit p : permits) {
      addRefund(args, ((RedisCounters) p.counters()).code, p.quota(), p.cost(), p.take());
    }
    return args;
  }

  /** Appends one key's five values of refund.lua: give back {@code cost} of {@code take}. */
  static void addRefund(List<String> args, String code, Quota quota, long cost, long take) {
    args.add(code);
    args.add(Long.toString(quota.windowMicros()));
    args.add(Long.toString(quota.emissionMicros()));
    args.add(Long.toString(cost));
    args.add(Long.toString(take));
  }

  /**
   * Fills each permit's verdict from acquire.lua's reply: four integers per key, the last of an
   * allowed key its take rather than a retry-after.
   */
  void fill(Object reply) {
    List<?> values = (List<?>) reply;
    this.reply = values;
    for (int i = 0; i < permits.size(); i++) {
      permits
          .get(i)
          .verdict()
          .set(
              ((Long) values.get(4 * i)) == 1,
              (Long) values.get(4 * i + 1),
              (Long) values.get(4 * i + 2),
              (Long) values.get(4 * i + 3));
      permits.get(i).tookAt((Long) values.get(4 * i + 3));
    }
  }

  /**
   * Fills each permit's verdict with what acquire.lua would decide for it alone now, from peek.lua,
   * which writes nothing; throws where Redis cannot answer, or a key holds another type.
   */
  void peek(UnifiedJedis redis, String time) {
    Object reply = Script.PEEK.run(redis, keys, acquireArgs(time));
    if (PendingCall.refused(reply)) {
      throw PendingCall.refusal();
    }
    fill(reply);
  }

  /**
   * What acquire.lua took for permit {@code i}, allowed: the window index it counted in (fixed and
   * sliding windows) or the TAT it left (bucket).
   */
  long take(int i) {
    return (Long) reply.get(4 * i + 3);
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
        denials.remember(keys.get(i), permits.get(i));
      }
    }
  }
}
