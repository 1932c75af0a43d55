package dev.sluice.store.redis;

import dev.sluice.metrics.RoundTrips;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Supplier;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.Response;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisNoScriptException;

/**
 * One round trip of the {@link Pipeliner}: a pipeline of script calls, each handed its reply or its
 * failure, and each master's {@link Breaker} told once how it answered.
 */
final class PipelineRoundTrip {
  /** Marks a call a leading caller's budget kept from being sent. */
  private static final Response<Object> NOT_SENT = new Response<>(null);

  private PipelineRoundTrip() {}

  /**
   * Sends {@code sends} by SHA-1 on a pipeline {@code open} makes; what a server answered NOSCRIPT
   * to goes to {@code again}, to be sent once more by text (queued, not sent at once: a caller
   * sending its own pipeline must not wait for a second round trip).
   *
   * <p>Each master's breaker hears once per round trip whether that master answered: a failed batch
   * is one failure of Redis, not one per call in it (the breaker would take each after the first
   * few for a failed probe, and pause for seconds). On Redis Cluster a pipeline reaches every
   * master holding one of its calls; one that cannot be reached, or whose replies never come, fails
   * only its own calls, and is not tried again in the same round trip.
   *
   * <p>On Redis Cluster, calls answered MOVED or ASK go once more where the reply points, before
   * this returns ({@link Redirects}; {@code redirects} is null on a server without cluster slots).
   * {@code roundTrips} hears how long the replies took and of every master that failed; {@code
   * replied} runs once the replies are read, before they are handed out.
   */
  static void run(
      Supplier<AbstractPipeline> open,
      List<PendingCall> sends,
      Consumer<PendingCall> again,
      Redirects redirects,
      RoundTrips roundTrips,
      Runnable replied) {
    // The masters of this round trip: null while one answers, else why it failed.
    Map<Breaker, RuntimeException> masters = new IdentityHashMap<>();
    Breaker[] breakers = new Breaker[sends.size()];
    List<Redirects.Hop> redirected = redirects == null ? null : new ArrayList<>(0);
    for (int i = 0; i < sends.size(); i++) {
      breakers[i] = sends.get(i).master;
      masters.put(breakers[i], null);
    }
    // Opening the pipeline may fail too: a connection made anew times out on a paused server.
    try (AbstractPipeline pipe = open.get()) {
      List<Response<Object>> responses = new ArrayList<>(sends.size());
      int unsent = 0;
      for (int i = 0; i < sends.size(); i++) {
        PendingCall call = sends.get(i);
        Breaker master = breakers[i];
        Response<Object> response = null;
        if (masters.get(master) == null) {
          try {
            response =
                call.byText
                    ? pipe.eval(call.script.text(), call.keys, call.args)
                    : pipe.evalsha(call.script.sha1(), call.keys, call.args);
          } catch (
              Budget.Expired e) { // the leader's budget ran out borrowing its master's connection
            notSent(call, again);
            response = NOT_SENT;
            unsent++;
            masters.remove(master); // unless another of its calls is sent, it learnt nothing
          } catch (RuntimeException e) { // its master cannot be reached
            masters.put(master, e);
          }
        }
        responses.add(response);
      }
      if (unsent == sends.size()) {
        return; // nothing sent, nothing learnt of any master
      }
      long sent = System.nanoTime();
      pipe.sync();
      replied.run();
      roundTrips.answered(System.nanoTime() - sent, sends.size() - unsent);
      for (int i = 0; i < sends.size(); i++) {
        RuntimeException failed = masters.get(breakers[i]);
        if (responses.get(i) == NOT_SENT) {
          continue;
        }
        if (failed == null && !answer(sends.get(i), responses.get(i), again, redirected)) {
          failed = new JedisConnectionException("no reply: the connection to its master failed");
          masters.put(breakers[i], failed);
        }
        if (failed != null) {
          sends.get(i).fail(failed);
        }
      }
    } catch (Budget.Expired e) {
      // The leader's budget ran out borrowing the connection: nothing was sent, nothing learnt.
      for (PendingCall call : sends) {
        notSent(call, again);
      }
      return;
    } catch (RuntimeException e) {
      for (int i = 0; i < sends.size(); i++) {
        sends.get(i).fail(e);
        masters.put(breakers[i], e);
      }
    }
    boolean cutShort = Budget.cutShort();
    for (Map.Entry<Breaker, RuntimeException> master : masters.entrySet()) {
      if (master.getValue() == null) {
        master.getKey().answered();
      } else if (!cutShort) {
        master.getKey().failed(master.getValue());
        roundTrips.failed();
      }
    }
    if (redirected != null && !redirected.isEmpty()) {
      redirects.follow(redirected);
    }
  }

  /**
   * A call a leading caller could not send in its budget: it goes to the senders for the other callers it
   * carries, or fails if nobody waits for it any longer.
   */
  private static void notSent(PendingCall call, Consumer<PendingCall> again) {
    if (call.expired(System.nanoTime())) {
      call.fail(new Budget.Expired());
    } else {
      again.accept(call);
    }
  }

  /**
   * Hands {@code call} its reply, or returns false if none came: reading from its master failed
   * (Jedis leaves the replies of a cluster master it lost unset). Redis answered otherwise,
   * whatever it answered, so nothing here counts against the breaker: a script error fails that
   * call (decided locally) but is no outage; a key of another type fails only its own call of a
   * bundle (acquire.lua refuses it alone, see {@link PendingCall}). A call answered MOVED or ASK
   * goes to {@code redirected}, if not null, to be sent once more.
   */
  private static boolean answer(
      PendingCall call,
      Response<Object> response,
      Consumer<PendingCall> again,
      List<Redirects.Hop> redirected) {
    Object reply;
    try {
      reply = response.get();
    } catch (IllegalStateException e) {
      return false;
    } catch (JedisNoScriptException e) {
      call.byText = true;
      again.accept(call);
      return true;
    } catch (RuntimeException e) {
      Redirects.Hop hop = redirected == null ? null : Redirects.hop(call, e);
      if (hop != null) {
        redirected.add(hop);
        return true;
      }
      // A script error: the calls of a bundle before the one at fault may have counted, so none
      // is sent again. A key of another type is no such error: acquire.lua refuses only its call.
      call.fail(e);
      return true;
    }
    call.complete(reply);
    return true;
  }
}
