package dev.sluice.bench;

import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.ThreadParams;

/**
 * Which key a benchmark thread uses next: it walks all keys in order and wraps around. Threads
 * start evenly spread over the keys, so with many keys two threads act like two different clients
 * rather than racing for the same cell; with one key they share it, as a hot key does.
 */
@State(Scope.Thread)
public class Cursor {
  private int thread;
  private int threads;
  private int next = -1;

  @Setup
  public void setUp(ThreadParams params) {
    thread = params.getThreadIndex();
    threads = params.getThreadCount();
  }

  /** The next index in [0, n); n is the same on every call. */
  int next(int n) {
    int i = next;
    if (i < 0) {
      i = (int) ((long) n * thread / threads); // first call: the key count is only known now
    }
    next = i + 1 == n ? 0 : i + 1;
    return i;
  }
}
