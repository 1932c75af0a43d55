package dev.sluice.store;

/** The store contract, held against the embedded store. */
class MemoryStoreContractTest extends StoreContract {
  @Override
  protected Store open(Clock clock) {
    return new MemoryStore(clock, MemoryStore.DEFAULT_MAX_KEYS, 0);
  }

  @Override
  protected long keyCount() {
    return ((MemoryStore) store).keyCount();
  }
}
