package dev.sluice.bench.redis;

import dev.sluice.store.redis.PipelinerProbe;
import java.util.ArrayList;
import java.util.List;

/**
 * An experiment, not a limiter: Sluice's acquire script through the store's {@code Pipeliner} alone
 * (no breaker, no local denials, no permit bookkeeping) with a chosen number of sender threads, to
 * see how the store's sender count compares with others.
 */
final class PipelinerContender implements Contender {
  private final PipelinerProbe probe;
  private final List<List<String>> keys;
  private final List<String> args = Ceiling.acquireArgs();

  PipelinerContender(int port, int keys, int senders) {
    probe = new PipelinerProbe(LocalRedis.HOST, port, senders, SluiceContender.TIMEOUT_MILLIS);
    this.keys = SluiceContender.scriptKeys(keys);
  }

  @Override
  public boolean take(int key) {
    // A fresh list: the pipeliner appends the arguments of same-key calls it merges into this one.
    return (Long) probe.acquire(keys.get(key), new ArrayList<>(args)).get(0) == 1;
  }

  @Override
  public void close() {
    probe.close();
  }
}
