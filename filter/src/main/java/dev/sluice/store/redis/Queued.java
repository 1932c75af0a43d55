package dev.sluice.store.redis;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/** One script call waiting in the {@link Pipeliner}, and the calls merged into it. */
final class Queued {
  final Script script;
  final List<String> keys;
  final List<String> args;
  final CompletableFuture<Object> result = new CompletableFuture<>();

  /** Set once the server answered NOSCRIPT: the call goes once more, as the script's text. */
  boolean byText;

  /** Calls merged into this one, each of them one more request in acquire.lua's argument list. */
  private List<Queued> absorbed;

  /** Where the last group of alike requests starts in {@link #args}: its request count. */
  private int lastGroup = Call.FIRST_GROUP;

  Queued(Script script, List<String> keys, List<String> args) {
    this.script = script;
    this.keys = keys;
    this.args = args;
  }

  /**
   * Whether calls for the same keys may merge into this one. Never one re-sent by text: it may hold
   * merged calls already, and a call merged into another call's merged list would go unanswered.
   */
  boolean mergeable() {
    return script == Script.ACQUIRE && !byText;
  }

  /**
   * Appends {@code other}'s request (one group of one, after the time and the group count); one
   * alike with the last group's (on a hot key, nearly all) only adds one to that group's count.
   */
  void absorb(Queued other) {
    if (absorbed == null) {
      absorbed = new ArrayList<>();
    }
    absorbed.add(other);
    List<String> values = other.args.subList(Call.FIRST_GROUP + 1, other.args.size());
    int end = lastGroup + 1 + values.size();
    if (end == args.size() && args.subList(lastGroup + 1, end).equals(values)) {
      args.set(lastGroup, Integer.toString(Integer.parseInt(args.get(lastGroup)) + 1));
    } else {
      lastGroup = args.size();
      args.add("1");
      args.addAll(values);
      args.set(Call.GROUPS, Integer.toString(Integer.parseInt(args.get(Call.GROUPS)) + 1));
    }
  }

  /** Hands each merged call its own four integers per key. */
  void complete(Object reply) {
    if (absorbed == null) {
      result.complete(reply);
      return;
    }
    List<?> all = (List<?>) reply;
    int each = 4 * keys.size();
    result.complete(all.subList(0, each));
    for (int i = 0; i < absorbed.size(); i++) {
      absorbed.get(i).result.complete(all.subList((i + 1) * each, (i + 2) * each));
    }
  }

  void fail(RuntimeException e) {
    result.completeExceptionally(e);
    if (absorbed != null) {
      for (Queued call : absorbed) {
        call.result.completeExceptionally(e);
      }
    }
  }
}
