package dev.sluice.bench.redis;

import java.util.Optional;

/**
 * A closed-loop row of {@link Report}'s table read back from a RedisLoad's output: what {@link
 * CompareBuilds} compares. Read from text, not from objects, because the other build's RedisLoad
 * runs in a JVM of its own and may be older than this class; its table has kept these columns.
 */
record PhaseRow(String phase, double perSecond, double decisionsPerRead, double jvmCpuPercent) {
  private static final int COLUMNS = 15;

  /** The row {@code line} is, unless it is none or an open-loop one (whose target is a rate). */
  static Optional<PhaseRow> parse(String line) {
    if (!line.startsWith("|")) {
      return Optional.empty();
    }
    String[] cells = line.substring(1).split("\\|");
    if (cells.length != COLUMNS || !cells[3].trim().equals("max")) {
      return Optional.empty();
    }
    String phase = cells[0].trim() + " keys, " + cells[1].trim() + " threads, " + cells[2].trim();
    return Optional.of(new PhaseRow(phase, number(cells[4]), number(cells[12]), number(cells[14])));
  }

  private static double number(String cell) {
    return Double.parseDouble(cell.replace(",", "").replace("%", "").trim());
  }
}
