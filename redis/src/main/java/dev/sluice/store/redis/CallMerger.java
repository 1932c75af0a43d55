package dev.sluice.store.redis;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one pipeline sends for the calls waiting in it: calls of acquire.lua for the same keys
 * merged into one (decided in order, alike requests counted once), and, where the server has no
 * cluster slots, the acquire calls of all identities bundled into one run. Each call still gets
 * exactly the verdicts it would get alone; Redis pays a script call's overhead once instead of once
 * a decision, which on one hot key or on 10,000 keys is most of its CPU.
 */
final class CallMerger {
  private CallMerger() {}

  /**
   * @param bundles whether calls of different identities may share a run: not on Redis Cluster,
   *     where they live on different slots
   */
  static List<PendingCall> sends(List<PendingCall> waiting, boolean bundles) {
    List<PendingCall> sends = mergeSameKeys(waiting);
    return bundles ? bundle(sends) : sends;
  }

  private static List<PendingCall> mergeSameKeys(List<PendingCall> waiting) {
    Map<List<String>, PendingCall> byKeys = new LinkedHashMap<>();
    List<PendingCall> sends = new ArrayList<>(waiting.size());
    for (PendingCall call : waiting) {
      PendingCall first = call.mergeable() ? byKeys.putIfAbsent(call.keys, call) : null;
      if (first != null && call.alone()) {
        first.absorb(call);
      } else {
        // A call carrying merged ones (back unsent from a leader) keeps them: it goes as it is.
        sends.add(call);
      }
    }
    return sends;
  }

  /** Bundles the mergeable calls that share the first one's time argument (tests vary it). */
  private static List<PendingCall> bundle(List<PendingCall> sends) {
    List<PendingCall> out = new ArrayList<>(sends.size());
    List<PendingCall> together = new ArrayList<>(sends.size());
    for (PendingCall call : sends) {
      if (call.mergeable()
          && (together.isEmpty() || call.args.get(0).equals(together.get(0).args.get(0)))) {
        together.add(call);
      } else {
        out.add(call);
      }
    }
    if (together.size() > 1) {
      out.add(PendingCall.bundle(together));
    } else {
      out.addAll(together);
    }
    return out;
  }
}
