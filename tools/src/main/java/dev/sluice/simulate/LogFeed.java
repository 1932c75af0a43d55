package dev.sluice.simulate;

import dev.sluice.support.Daemons;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * Reads and parses a log on a thread of its own, ahead of the replay, handing over parsed requests
 * in batches. Reading and cutting lines is about a third of a replay's work and needs nothing of
 * the decisions, so on two cores it runs beside them; the decisions stay on one thread, in the
 * log's order. A few batches circulate, so the reader never runs far ahead of the replay and
 * nothing is allocated per batch.
 *
 * <p>The counts and skips are the reader's: read them once {@link #next} has answered the last
 * batch (the hand-over through the queue makes them visible).
 */
final class LogFeed implements AutoCloseable {
  static final int BATCH = 1024;
  private static final int BATCHES = 8;

  private final BlockingQueue<Batch> full = new ArrayBlockingQueue<>(BATCHES);
  private final BlockingQueue<Batch> free = new ArrayBlockingQueue<>(BATCHES);
  private final Thread reader;

  long lines;
  long skipped;
  final List<Replay.Skip> skips = new ArrayList<>();

  /** What stopped the reader before the log's end, if anything did. */
  private Throwable failure;

  /** Lines that fit {@code format}, as requests. */
  static final class Batch {
    final LoggedRequest[] requests = new LoggedRequest[BATCH];
    int size;
    boolean last;

    Batch(AccessLogFormat format, Set<String> notLogged) {
      for (int i = 0; i < BATCH; i++) {
        requests[i] = format.newRequest(notLogged);
      }
    }
  }

  /**
   * @param notLogged where the requests note what the rules asked of them in vain; only the replay
   *     reads requests, so only its thread writes there
   */
  LogFeed(LogLines log, AccessLogFormat format, Set<String> notLogged) {
    for (int i = 0; i < BATCHES; i++) {
      free.add(new Batch(format, notLogged));
    }
    reader = Daemons.start("sluice-simulate-reader", () -> read(log, format));
  }

  /** The next batch in the log's order; the last one says so, and may be empty. */
  Batch next() throws IOException, InterruptedException {
    Batch batch = full.take();
    if (batch.last && failure instanceof IOException) {
      throw (IOException) failure;
    } else if (batch.last && failure instanceof RuntimeException) {
      throw (RuntimeException) failure;
    } else if (batch.last && failure != null) {
      throw (Error) failure;
    }
    return batch;
  }

  /** Gives a replayed batch back to the reader. */
  void recycle(Batch batch) {
    batch.size = 0;
    free.add(batch);
  }

  private void read(LogLines log, AccessLogFormat format) {
    try {
      Batch batch = free.take();
      try {
        String line;
        while ((line = log.next()) != null) {
          lines++;
          String problem =
              log.tooLong() ? LogLines.TOO_LONG : format.parse(line, batch.requests[batch.size]);
          if (problem != null) {
            skip(problem);
          } else if (++batch.size == BATCH) {
            full.put(batch);
            batch = free.take();
          }
        }
      } catch (IOException | RuntimeException | Error e) {
        failure = e; // said by the replay's thread, which would otherwise wait for more
      }
      batch.last = true;
      full.put(batch);
    } catch (InterruptedException e) {
      // the replay gave up: nobody reads on
    }
  }

  private void skip(String problem) {
    skipped++;
    if (skips.size() < Replay.SKIPS_SHOWN) {
      skips.add(new Replay.Skip(lines, problem));
    }
  }

  /**
   * Stops the reader and waits for it a little: one blocked reading a pipe cannot be interrupted,
   * and is a daemon.
   */
  @Override
  public void close() throws InterruptedException {
    reader.interrupt();
    reader.join(1000);
  }
}
