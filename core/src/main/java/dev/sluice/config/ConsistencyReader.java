package dev.sluice.config;

import dev.sluice.core.Delay;
import dev.sluice.store.Consistency;

/**
 * Reads {@code consistency} and its one knob, {@code sync}: the store-wide default from the {@code
 * store} section, and each rule's over it (through {@code defaults}, as the rule's other fields).
 * A delayed rule stays exact: its queue is the slot Redis reserves for each request, which a lease
 * cannot hold. Saying local_first on such a rule itself is an error; inheriting it is not.
 */
final class ConsistencyReader {
  static final long DEFAULT_SYNC_MICROS = 100_000;
  private static final long MIN_SYNC_MICROS = 10_000;
  private static final long MAX_SYNC_MICROS = 60_000_000;

  /** As ratelimit.yaml writes it. */
  enum Choice {
    EXACT,
    LOCAL_FIRST
  }

  private ConsistencyReader() {}

  /** The store-wide default, {@code store.consistency} and {@code store.sync}; exact if none. */
  static Consistency store(Fields store, Problems problems) {
    if (store == null) {
      return Consistency.EXACT;
    }
    Choice choice = store.choice("consistency", Choice.class);
    Long sync = syncOf(store, problems);
    if (sync != null && choice != Choice.LOCAL_FIRST) {
      problems.at(store.where("sync"), store.pathOf("sync"), onlyLocalFirst("store"));
    }
    return choice == Choice.LOCAL_FIRST
        ? Consistency.localFirst(sync == null ? DEFAULT_SYNC_MICROS : sync)
        : Consistency.EXACT;
  }

  /** The sync of {@code f} in microseconds, or null when not given or reported. */
  static Long syncOf(Fields f, Problems problems) {
    Long sync = f.duration("sync");
    if (sync != null && (sync < MIN_SYNC_MICROS || sync > MAX_SYNC_MICROS)) {
      problems.at(
          f.where("sync"),
          f.pathOf("sync"),
          "must be from 10ms to 1m: how stale a JVM's view of the fleet's count may be, got \""
              + f.string("sync")
              + "\"");
      return null;
    }
    return sync;
  }

  /**
   * A rule's consistency: its own or its defaults' where given, else the store's. A rule given
   * local_first with a delay is reported; a delayed rule that inherits it stays exact.
   */
  static Consistency rule(RuleValues v, Consistency store, Delay delay, Problems problems) {
    boolean localFirst =
        v.consistency != null ? v.consistency == Choice.LOCAL_FIRST : !store.isExact();
    if (v.syncMicros != null && !localFirst && own(v, "sync")) {
      // A sync in defaults may serve the rules that say local_first; this one says none.
      problems.at(v.where("sync"), v.pathOf("sync"), onlyLocalFirst("rule"));
    }
    if (!localFirst) {
      return Consistency.EXACT;
    }
    if (delay != null) {
      if (v.consistency == Choice.LOCAL_FIRST && own(v, "consistency")) {
        problems.at(
            v.where("consistency"),
            v.pathOf("consistency"),
            "a delayed rule must be exact: its queue is the slot Redis reserves for each request,"
                + " which a local lease cannot hold");
      }
      return Consistency.EXACT;
    }
    long sync = v.syncMicros != null ? v.syncMicros : store.isExact() ? 0 : store.syncMicros();
    return Consistency.localFirst(sync == 0 ? DEFAULT_SYNC_MICROS : sync);
  }

  private static boolean own(RuleValues v, String field) {
    return !v.pathOf(field).startsWith("defaults.");
  }

  private static String onlyLocalFirst(String where) {
    return "applies to consistency: local_first only (this "
        + where
        + " is exact); remove it, or add consistency: local_first";
  }
}
