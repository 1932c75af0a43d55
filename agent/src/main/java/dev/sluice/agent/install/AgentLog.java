package dev.sluice.agent.install;

import java.util.ArrayList;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The agent's own lines from its start, held back until the application's logging is in place.
 * {@code java.util.logging} has one {@code LogManager} per JVM, chosen once, by whoever first
 * touches it: were the agent first, from {@code premain}, an application that names its own later
 * (JBoss Modules installs JBoss LogManager from WildFly's {@code main}) would not get it, and
 * WildFly refuses to boot. So nothing here touches {@code java.util.logging} before {@link #open}.
 */
final class AgentLog {
  static final String NAME = "dev.sluice.agent";

  /** A start says a handful of things; a flood would only be held in memory. */
  private static final int HELD_AT_MOST = 50;

  private static final List<Line> held = new ArrayList<Line>();
  private static int dropped;
  private static boolean open;

  private AgentLog() {}

  static void fine(String message) {
    log("FINE", message, null);
  }

  static void info(String message) {
    log("INFO", message, null);
  }

  static void warning(String message) {
    log("WARNING", message, null);
  }

  static void severe(String message, Throwable thrown) {
    log("SEVERE", message, thrown);
  }

  /** Levels by name: {@link Level} is not even loaded while the lines are held. */
  private static void log(String level, String message, Throwable thrown) {
    synchronized (AgentLog.class) {
      if (!open) {
        if (held.size() < HELD_AT_MOST) {
          held.add(new Line(level, message, thrown));
        } else {
          dropped++;
        }
        return;
      }
    }
    Logger.getLogger(NAME).log(Level.parse(level), message, thrown);
  }

  /**
   * Logs from now on, the held lines first. Called on the agent's own thread once the application
   * has set up {@code java.util.logging} itself, or serves its first request.
   */
  static void open() {
    List<Line> lines;
    int lost;
    synchronized (AgentLog.class) {
      if (open) {
        return;
      }
      open = true;
      lines = new ArrayList<Line>(held);
      lost = dropped;
      held.clear();
    }
    Logger logger = Logger.getLogger(NAME);
    for (Line line : lines) {
      logger.log(Level.parse(line.level), line.message, line.thrown);
    }
    if (lost > 0) {
      logger.warning("Sluice: " + lost + " more lines from the agent's start were not kept");
    }
  }

  private static final class Line {
    final String level;
    final String message;
    final Throwable thrown;

    Line(String level, String message, Throwable thrown) {
      this.level = level;
      this.message = message;
      this.thrown = thrown;
    }
  }
}
