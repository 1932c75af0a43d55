package dev.sluice;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Collects the messages a logger logs while it is open, for tests that assert what Sluice logs
 * (once, not once per request). Holds the logger strongly, so it keeps the handler.
 */
public final class LogCapture extends Handler implements AutoCloseable {
  private final Logger logger;
  private final List<String> messages = new CopyOnWriteArrayList<>();

  private LogCapture(Logger logger) {
    this.logger = logger;
  }

  /** Starts collecting what the logger {@code name} logs. */
  public static LogCapture of(String name) {
    LogCapture capture = new LogCapture(Logger.getLogger(name));
    capture.logger.addHandler(capture);
    return capture;
  }

  /** The messages so far, unformatted; a live view. */
  public List<String> messages() {
    return messages;
  }

  @Override
  public void publish(LogRecord record) {
    messages.add(record.getMessage());
  }

  @Override
  public void flush() {}

  /** Stops collecting. */
  @Override
  public void close() {
    logger.removeHandler(this);
  }
}
