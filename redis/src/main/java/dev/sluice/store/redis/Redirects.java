package dev.sluice.store.redis;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import redis.clients.jedis.CommandArguments;
import redis.clients.jedis.Connection;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.Response;
import redis.clients.jedis.exceptions.JedisAskDataException;
import redis.clients.jedis.exceptions.JedisMovedDataException;
import redis.clients.jedis.exceptions.JedisNoScriptException;
import redis.clients.jedis.exceptions.JedisRedirectionException;
import redis.clients.jedis.providers.ClusterConnectionProvider;

/**
 * Follows the MOVED and ASK replies of a cluster pipeline, which Jedis leaves to its caller: while
 * a slot is resharded, its identities would otherwise be decided locally (fail_closed: denied), and
 * since Redis answered, no breaker would ever open.
 *
 * <p>A node answers MOVED or ASK before it runs anything, so a call sent once more where the reply
 * points cannot count twice; a call whose reply is anything else (a timeout, a lost connection) may
 * have counted and is never sent again. Each call goes once more, at once, on the thread of its
 * round trip and on a connection to the node named (a queued call would go where the slot map says,
 * and without ASKING), whose socket timeout is the decision budget: MOVED (the slot has another
 * master) to the master it names, which the slot map is then read from; ASK (the slot is moving and
 * the call's keys have left the old master) to the node it names, after ASKING. A node that does
 * not know the script is sent its text on the same connection. What that node answers is final:
 * another redirect fails the call like any other error reply, as does TRYAGAIN, which no resend
 * would outlast (an identity's keys split between the two nodes by the migration, or missing on the
 * new one, until the slot is handed over). None of it is a failure of Redis: no breaker hears of
 * it.
 */
final class Redirects {
  private final ClusterConnectionProvider slots;

  Redirects(ClusterConnectionProvider slots) {
    this.slots = slots;
  }

  /** A call to send once more, where its reply pointed. */
  static final class Hop {
    final PendingCall call;
    final HostAndPort target;

    /** ASK: the target serves the slot's keys only for commands sent after ASKING. */
    final boolean asking;

    private Hop(PendingCall call, JedisRedirectionException reply) {
      this.call = call;
      this.target = reply.getTargetNode();
      this.asking = reply instanceof JedisAskDataException;
    }

    /** MOVED: the slot map is out of date. */
    boolean moved() {
      return !asking;
    }
  }

  /** Where {@code reply} sends {@code call} once more, or null if it is no MOVED or ASK. */
  static Hop hop(PendingCall call, RuntimeException reply) {
    return reply instanceof JedisMovedDataException || reply instanceof JedisAskDataException
        ? new Hop(call, (JedisRedirectionException) reply)
        : null;
  }

  /**
   * Sends each call once more, one pipeline per target node, and completes or fails each. A call
   * answered or failed meanwhile, or whose callers stopped waiting, is not sent: nobody would use
   * its verdict, but it would count.
   */
  void follow(List<Hop> hops) {
    Map<HostAndPort, List<Hop>> byTarget = new LinkedHashMap<>();
    long now = System.nanoTime();
    for (Hop hop : hops) {
      if (hop.call.expired(now)) {
        hop.call.fail(new Budget.Expired());
      } else if (!hop.call.result.isDone()) {
        byTarget.computeIfAbsent(hop.target, t -> new ArrayList<>()).add(hop);
      }
    }
    boolean renewed = false;
    for (Map.Entry<HostAndPort, List<Hop>> target : byTarget.entrySet()) {
      renewed |= resend(target.getKey(), target.getValue(), !renewed);
    }
  }

  /**
   * One target's calls; reads the slot map from it if {@code mayRenew} and one of them was MOVED
   * there (once per round trip: a second read would say the same). Returns whether it did.
   */
  private boolean resend(HostAndPort target, List<Hop> hops, boolean mayRenew) {
    List<Hop> pending = hops;
    Connection connection;
    try {
      connection = slots.getConnection(target);
    } catch (RuntimeException e) {
      fail(hops, e);
      return false;
    }
    try (Pipeline pipe = new Pipeline(connection, true)) {
      pending = send(pipe, hops, false);
      if (!pending.isEmpty()) {
        pending = send(pipe, pending, true);
      }
      if (mayRenew && hops.stream().anyMatch(Hop::moved)) {
        renew(connection);
        return true;
      }
    } catch (RuntimeException e) {
      fail(pending, e);
    }
    return false;
  }

  /**
   * Sends {@code hops} on {@code pipe} by SHA-1, or by text if {@code byText} or the call had to
   * be; returns those sent by SHA-1 that the node answered NOSCRIPT to, to be sent by text.
   */
  private static List<Hop> send(Pipeline pipe, List<Hop> hops, boolean byText) {
    List<Response<Object>> responses = new ArrayList<>(hops.size());
    for (Hop hop : hops) {
      PendingCall call = hop.call;
      if (hop.asking) {
        pipe.sendCommand(new CommandArguments(Protocol.Command.ASKING));
      }
      responses.add(
          byText || call.byText
              ? pipe.eval(call.script.text(), call.keys, call.args)
              : pipe.evalsha(call.script.sha1(), call.keys, call.args));
    }
    pipe.sync();
    List<Hop> noScript = new ArrayList<>(0);
    for (int i = 0; i < hops.size(); i++) {
      Hop hop = hops.get(i);
      try {
        hop.call.complete(responses.get(i).get());
      } catch (JedisNoScriptException e) {
        if (byText || hop.call.byText) {
          hop.call.fail(e);
        } else {
          noScript.add(hop);
        }
      } catch (RuntimeException e) {
        hop.call.fail(e);
      }
    }
    return noScript;
  }

  /**
   * Reads the slot map from the node a MOVED named, which serves the slot and so knows: the next
   * calls for it then go there at once rather than each being redirected until the periodic
   * refresh. Jedis lets one thread read it at a time and the others go on; a failure leaves the
   * periodic refresh to it.
   */
  private void renew(Connection connection) {
    try {
      slots.renewSlotCache(connection);
    } catch (RuntimeException e) {
      // The calls are answered; the map is read again within a second anyway.
    }
  }

  private static void fail(List<Hop> hops, RuntimeException e) {
    for (Hop hop : hops) {
      hop.call.fail(e);
    }
  }
}
