package dev.sluice.store.redis;

import dev.sluice.algo.Algorithm;
import dev.sluice.algo.Quota;
import dev.sluice.store.Clock;
import dev.sluice.store.Consistency;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * What leases ask of Redis: lease.lua for a grant, queued for the pipelines (which batch it with
 * exact calls) and installed when Redis answers, on the thread that reads the answer; refund.lua
 * for what a grant that ended left, queued like a denied request's refunds.
 */
final class LeaseCalls implements Lease.Ended {
  private final Clock clock;
  private final Fleet fleet;
  private final ScriptTime time;
  private final ShardBreakers breakers;
  private final LocalDenials denials;
  private final LastAnswers answers;
  private final Supplier<ConnectedClient> client;

  LeaseCalls(
      Clock clock,
      Fleet fleet,
      ScriptTime time,
      ShardBreakers breakers,
      LocalDenials denials,
      LastAnswers answers,
      Supplier<ConnectedClient> client) {
    this.clock = clock;
    this.fleet = fleet;
    this.time = time;
    this.breakers = breakers;
    this.denials = denials;
    this.answers = answers;
    this.client = client;
  }

  /**
   * The most one grant holds: half this JVM's share of the limit, at least one permit. A lease may
   * hold a grant and the half left of the one before, so the fleet's leases hold at most 3/4 of the
   * limit (docs/design.md, "Local-first decisions").
   */
  long cap(Quota quota) {
    return Consistency.grantCap(quota.limit(), fleet.size());
  }

  /**
   * The fetch in flight for {@code lease}, or a new one of lease.lua for at least {@code cost}
   * permits, queued for the pipelines (which batch it with exact calls), its grant installed when
   * Redis answers, on the thread that reads the answer.
   */
  CompletableFuture<Void> fetch(Lease lease, ConnectedClient current, long cost) {
    CompletableFuture<Void> mine = new CompletableFuture<>();
    CompletableFuture<Void> theirs = lease.beginFetch(mine);
    if (theirs != null) {
      return theirs;
    }
    long want = Math.max(cost, Math.min(lease.want(), cap(lease.quota)));
    List<String> args = new ArrayList<>(8);
    args.add(time.arg());
    args.addAll(lease.counters.terms(lease.quota));
    args.add(Long.toString(want));
    args.add(Integer.toString(fleet.size()));
    long sentAt = clock.micros();
    try {
      current
          .pipeliner
          .submit(
              Script.LEASE,
              breakers.of(lease.key),
              lease.keys,
              args,
              current.pipeliner.deadlineFromNow())
          .whenComplete((reply, failure) -> answered(lease, mine, reply, failure, sentAt));
    } catch (RuntimeException e) {
      answered(lease, mine, null, e, sentAt);
    }
    return mine;
  }

  private void answered(
      Lease lease, CompletableFuture<Void> mine, Object reply, Throwable failure, long sentAt) {
    try {
      if (failure == null) {
        granted(lease, (List<?>) reply, sentAt);
      } else {
        // A call that timed out may still run when Redis comes back, and its grant is lost to
        // this JVM: while Redis fails, each costs one permit at most.
        lease.failed();
      }
    } catch (RuntimeException e) {
      failure = e;
    } finally {
      lease.endFetch();
    }
    if (failure == null) {
      mine.complete(null);
    } else {
      mine.completeExceptionally(failure);
    }
  }

  private void granted(Lease lease, List<?> reply, long sentAt) {
    long now = clock.micros();
    lease.tally.lastSyncMicros = now;
    boolean window = lease.counters.algorithm() != Algorithm.TOKEN_BUCKET;
    Grant grant = Grant.of(reply, sentAt, lease.counters.consistency.syncMicros(), window);
    if (grant == null) {
      if (lease.held() == 0) {
        denials.remember(
            lease.key,
            lease.counters.algorithm(),
            lease.quota,
            (Long) reply.get(3),
            (Long) reply.get(2),
            (Long) reply.get(1));
      }
      return;
    }
    lease.tally.leased.add(grant.size);
    if (window) {
      // If Redis fails in this window, the local share starts from what remains after this grant.
      answers.answered(lease.key, grant.take, grant.remaining);
    }
    lease.install(grant, now, this);
    if (lease.forgotten()) {
      lease.end(now, this); // forgotten meanwhile: nobody would spend or give it back
    }
  }

  /**
   * Gives back what {@code grant} left, where it still counts in Redis: in its own window (fixed),
   * in that window or the next, where it weighs as the previous one (sliding), or what of it the
   * bucket has not refilled yet (refund.lua finds which).
   */
  @Override
  public void ended(Lease lease, Grant grant, long now) {
    long left = grant.kill();
    if (left == 0) {
      return;
    }
    lease.shrink();
    Algorithm algorithm = lease.counters.algorithm();
    long counts =
        algorithm == Algorithm.SLIDING_WINDOW
            ? grant.expiresAt + lease.quota.windowMicros()
            : grant.expiresAt;
    ConnectedClient current = client.get();
    if (current == null || (algorithm != Algorithm.TOKEN_BUCKET && now >= counts)) {
      lease.tally.diedUnspent.add(left);
      return;
    }
    List<String> args = new ArrayList<>(6);
    args.add(time.arg());
    IdentityCall.addRefund(args, lease.counters.code, lease.quota, left, grant.take);
    current.pipeliner.submit(
        Script.REFUND,
        breakers.of(lease.key),
        lease.keys,
        args,
        System.nanoTime() + RedisStore.REFUND_PATIENCE_NANOS);
    lease.tally.givenBack.add(left);
  }
}
