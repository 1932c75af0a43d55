package dev.sluice.config;

import dev.sluice.algo.Algorithm;
import dev.sluice.core.Delay;

/**
 * Reads a rule's {@code delay: { max_wait, immediate, max_waiting }}. Only a token bucket delays:
 * its one number per key is the queue's last reserved slot, so a store reserves a slot as it takes
 * a permit. The delay replaces the bucket's {@code burst} (the queue's length is {@code max_wait}
 * at the rule's rate, its prompt part {@code immediate}), so the two together are refused.
 */
final class DelayReader {
  private DelayReader() {}

  /**
   * The delay of {@code f}, found at {@code path} (null when the rule has none), or null after
   * reporting why it is not one.
   */
  static Delay read(Fields f, String path, RuleValues v, Problems problems) {
    if (f == null || !f.isMapping()) {
      return null; // none, or reported
    }
    Long maxWait = f.duration("max_wait");
    Long immediate = f.countFromZero("immediate");
    Long maxWaiting = f.positive("max_waiting");
    f.finish("max_wait", "immediate", "max_waiting");
    if (maxWait != null && maxWait > Delay.MAX_WAIT_MICROS) {
      problems.at(
          f.where("max_wait"),
          f.pathOf("max_wait"),
          "must be at most 60s: a request waits holding a server thread, or a place among the"
              + " few that may wait; deny it sooner (a Retry-After tells the client when)");
      maxWait = null;
    }
    boolean valid = maxWait != null;
    if (maxWait == null && f.where("max_wait") == f.node()) {
      problems.at(f.node(), f.pathOf("max_wait"), "missing: how long a request may wait, as 2s");
    }
    if (v.algorithm != Algorithm.TOKEN_BUCKET) {
      problems.at(
          f.node(),
          path,
          "applies to algorithm token_bucket only: its requests are spaced at the rule's rate");
      valid = false;
    }
    if (v.burst != null) {
      problems.at(
          v.where("burst"),
          v.pathOf("burst"),
          "a rule with delay has no burst: max_wait is how many may queue, and delay.immediate"
              + " how many of them pass at once");
      valid = false;
    }
    if (!valid) {
      return null;
    }
    return new Delay(
        maxWait,
        immediate == null ? 0 : immediate,
        maxWaiting == null
            ? Delay.DEFAULT_MAX_WAITING
            : maxWaiting.intValue()); // at most MAX_COUNT
  }
}
