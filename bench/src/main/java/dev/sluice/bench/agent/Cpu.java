package dev.sluice.bench.agent;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * CPU time from Linux's /proc: of a process (user + system), of this JVM's children that have
 * exited and been waited for (where wrk's time lands once it ends), and of the whole machine.
 */
final class Cpu {
  private static final double TICKS = clockTicks();

  private Cpu() {}

  /** CPU seconds of a process so far: in user mode (its Java code, GC, JIT) and in the kernel. */
  record Times(double user, double system) {
    static Times of(long pid) {
      String[] f = fields(Path.of("/proc", Long.toString(pid), "stat"));
      return new Times(Long.parseLong(f[11]) / TICKS, Long.parseLong(f[12]) / TICKS);
    }

    Times minus(Times before) {
      return new Times(user - before.user, system - before.system);
    }

    double total() {
      return user + system;
    }
  }

  /**
   * Context switches of a process so far, summed over its live threads (the status file of each
   * thread under /proc/PID/task): voluntary (a thread blocked: parked, waiting on a socket) and
   * involuntary (preempted). Threads that ended meanwhile drop out, so compare runs of servers whose
   * thread pools are warm.
   */
  record Switches(long voluntary, long involuntary) {
    static Switches of(long pid) {
      long voluntary = 0;
      long involuntary = 0;
      try (java.util.stream.Stream<Path> tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
        for (Path task : (Iterable<Path>) tasks::iterator) {
          List<String> lines;
          try {
            lines = Files.readAllLines(task.resolve("status"), StandardCharsets.US_ASCII);
          } catch (IOException e) {
            continue; // the thread ended while we read
          }
          for (String line : lines) {
            if (line.startsWith("voluntary_ctxt_switches:")) {
              voluntary += Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
            } else if (line.startsWith("nonvoluntary_ctxt_switches:")) {
              involuntary += Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
            }
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      return new Switches(voluntary, involuntary);
    }

    Switches minus(Switches before) {
      return new Switches(voluntary - before.voluntary, involuntary - before.involuntary);
    }
  }

  /** User + system CPU seconds of this JVM's children that have ended and been waited for. */
  static double endedChildren() {
    String[] f = fields(Path.of("/proc/self/stat"));
    return (Long.parseLong(f[13]) + Long.parseLong(f[14])) / TICKS;
  }

  /** The machine's CPU seconds so far, over all cores: busy (all but idle and iowait), steal. */
  record Machine(double busy, double steal) {
    static Machine now() {
      String line;
      try {
        line = Files.readAllLines(Path.of("/proc/stat"), StandardCharsets.US_ASCII).get(0);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      // cpu user nice system idle iowait irq softirq steal guest guest_nice
      String[] f = line.trim().split("\\s+");
      long busy = 0;
      for (int i : new int[] {1, 2, 3, 6, 7, 8}) {
        busy += Long.parseLong(f[i]);
      }
      return new Machine(busy / TICKS, Long.parseLong(f[8]) / TICKS);
    }

    Machine minus(Machine before) {
      return new Machine(busy - before.busy, steal - before.steal);
    }
  }

  /** The fields of a /proc/PID/stat after the command name, so that index 0 is field 3. */
  private static String[] fields(Path stat) {
    try {
      String s = Files.readString(stat, StandardCharsets.US_ASCII);
      return s.substring(s.lastIndexOf(')') + 2).trim().split(" ");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static double clockTicks() {
    try {
      Process p = new ProcessBuilder("getconf", "CLK_TCK").redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).trim();
      p.waitFor();
      return Double.parseDouble(out);
    } catch (IOException | NumberFormatException e) {
      return 100; // USER_HZ on every Linux this runs on
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return 100;
    }
  }
}
