package dev.sluice.bench;

import java.util.concurrent.ConcurrentHashMap;

/**
 * A control, not a limiter: a bare {@link ConcurrentHashMap#get} of the identity, keyed and looked
 * up exactly as in the bucket benchmarks. It is the floor every in-memory limiter with per-key
 * state pays on this machine, mostly cache and TLB misses once keys are many.
 */
public class MapLookupBench extends KeyedBench {
  private String[] identities;
  private ConcurrentHashMap<String, Object> map;

  @Override
  protected void build() {
    identities = Identities.ipIdentities(keys);
    map = new ConcurrentHashMap<>();
    for (int i = 0; i < keys; i++) {
      map.put(Identities.ipIdentity(i), new long[2]); // a value the size of a Sluice cell
    }
  }

  @Override
  protected boolean take(int i) {
    return map.get(identities[i]) != null;
  }

  @Override
  protected boolean expectAllowed() {
    return true;
  }
}
