package dev.sluice.bench.redis;

/**
 * Allows every call at once without any work: run on Sluice's open-loop schedule, it shows what the
 * driver's own threads, woken at each send time on the same cores, add to the latency.
 */
final class NoLimiter implements Contender {
  @Override
  public boolean take(int key) {
    return true;
  }

  @Override
  public void close() {}
}
