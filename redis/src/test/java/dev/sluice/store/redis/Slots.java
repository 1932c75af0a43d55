package dev.sluice.store.redis;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import redis.clients.jedis.HostAndPort;

/** A slot map tests move by hand: a key's slot is its first digit. */
final class Slots implements ShardBreakers.SlotMap {
  private final Map<Integer, HostAndPort> masters = new ConcurrentHashMap<>();

  Slots serve(int slot, HostAndPort master) {
    masters.put(slot, master);
    return this;
  }

  @Override
  public int slotOf(String key) {
    return Character.isDigit(key.charAt(0)) ? key.charAt(0) - '0' : 9;
  }

  @Override
  public HostAndPort masterOf(int slot) {
    return masters.get(slot);
  }
}
