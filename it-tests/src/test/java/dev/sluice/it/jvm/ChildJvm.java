package dev.sluice.it.jvm;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.jar.JarFile;
import java.util.jar.Manifest;

/**
 * A {@code main} class run in a JVM of its own on this JVM's class path, spoken to by lines: it
 * writes to stdout (stderr merged in), the test writes to its stdin. Every wait is bounded; on a
 * timeout the child is killed and the failure quotes everything it printed.
 */
public final class ChildJvm implements AutoCloseable {
  /** Queued after the last line, when the child's output ends. */
  @SuppressWarnings("StringOperationCanBeSimplified") // a unique instance, compared by identity
  private static final String END = new String("(end of output)");

  private final String name;
  private final Process process;
  private final Writer stdin;
  private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
  private final StringBuffer output = new StringBuffer();

  private ChildJvm(String name, Process process) {
    this.name = name;
    this.process = process;
    this.stdin = process.outputWriter(UTF_8);
    Thread reader = new Thread(this::read, "child-output-" + name);
    reader.setDaemon(true);
    reader.start();
  }

  /** Runs {@code main} on this JVM's class path. */
  public static ChildJvm start(String name, Class<?> main, String... args) {
    List<String> command = new ArrayList<>();
    command.add(java());
    command.add("-cp");
    command.add(classPath(main));
    command.add(main.getName());
    command.addAll(List.of(args));
    return start(name, command, Map.of(), null);
  }

  /**
   * Runs {@code command} (any program) with {@code environment} added to this one's, in {@code
   * directory} (null: this one's).
   */
  public static ChildJvm start(
      String name, List<String> command, Map<String, String> environment, Path directory) {
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.environment().putAll(environment);
    if (directory != null) {
      builder.directory(directory.toFile());
    }
    try {
      return new ChildJvm(name, builder.start());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start " + name + ": " + command, e);
    }
  }

  /** The java launcher of this JVM. */
  public static String java() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  /**
   * This JVM's class path, with the Class-Path of any manifest-only jar spelled out. Failsafe
   * starts the test JVM from such a jar (useManifestOnlyJar, its default) but sets java.class.path
   * to the real entries; should a runner leave the jar there instead, its manifest is read here, so
   * the child never depends on a temporary jar. Checked up front: the child must find {@code main}
   * (in a directory of classes, or a jar: bench's StartupCost runs on it-tests' test jar).
   */
  public static String classPath(Class<?> main) {
    Set<String> entries = new LinkedHashSet<>();
    for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
      entries.add(entry);
      entries.addAll(manifestClassPath(Path.of(entry)));
    }
    String resource = main.getName().replace('.', '/') + ".class";
    if (entries.stream().noneMatch(e -> holds(Path.of(e), resource))) {
      throw new IllegalStateException("no class path entry holds " + resource + ": " + entries);
    }
    return String.join(File.pathSeparator, entries);
  }

  /** True if the class path entry {@code entry}, a directory or a jar, holds {@code resource}. */
  private static boolean holds(Path entry, String resource) {
    if (Files.isDirectory(entry)) {
      return Files.isRegularFile(entry.resolve(resource));
    }
    if (!entry.toString().endsWith(".jar") || !Files.isRegularFile(entry)) {
      return false;
    }
    try (JarFile file = new JarFile(entry.toFile())) {
      return file.getEntry(resource) != null;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + entry, e);
    }
  }

  private static List<String> manifestClassPath(Path jar) {
    List<String> entries = new ArrayList<>();
    if (!jar.toString().endsWith(".jar") || !Files.isRegularFile(jar)) {
      return entries;
    }
    try (JarFile file = new JarFile(jar.toFile())) {
      Manifest manifest = file.getManifest();
      String classPath =
          manifest == null ? null : manifest.getMainAttributes().getValue("Class-Path");
      if (classPath != null) {
        URI base = jar.toUri();
        for (String item : classPath.trim().split("\\s+")) {
          entries.add(Path.of(base.resolve(item)).toString());
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the manifest of " + jar, e);
    }
    return entries;
  }

  private void read() {
    try (BufferedReader in =
        new BufferedReader(new InputStreamReader(process.getInputStream(), UTF_8))) {
      for (String line; (line = in.readLine()) != null; ) {
        output.append(line).append('\n');
        lines.add(line);
      }
    } catch (IOException e) {
      output.append("(output unreadable: ").append(e).append(")\n");
    }
    lines.add(END);
  }

  /** The next line starting with {@code prefix}, waiting at most {@code timeout} in all. */
  public String awaitLine(String prefix, Duration timeout) throws InterruptedException {
    return awaitLine(line -> line.startsWith(prefix), "starting \"" + prefix + "\"", timeout);
  }

  /**
   * The next line containing {@code text} anywhere, for logs that put a timestamp and a logger name
   * before the message; waits at most {@code timeout} in all.
   */
  public String awaitLineContaining(String text, Duration timeout) throws InterruptedException {
    return awaitLine(line -> line.contains(text), "containing \"" + text + "\"", timeout);
  }

  /** The next line {@code wanted} accepts ({@code what} names it); waits {@code timeout} at most. */
  public String awaitLine(Predicate<String> wanted, String what, Duration timeout)
      throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      String line = lines.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
      if (line == null) {
        throw failure("no line " + what + " within " + timeout.toMillis() + " ms");
      }
      if (line == END) {
        lines.add(END);
        throw failure("ended its output before a line " + what);
      }
      if (wanted.test(line)) {
        return line;
      }
    }
  }

  public void send(String line) throws IOException {
    stdin.write(line + "\n");
    stdin.flush();
  }

  /** Ends the child's standard input, as a test says it is done. */
  public void closeInput() throws IOException {
    stdin.close();
  }

  /** Waits for the child to exit with code 0. */
  public void awaitSuccess(Duration timeout) throws InterruptedException {
    int code = awaitExit(timeout);
    if (code != 0) {
      throw failure("exited with code " + code);
    }
  }

  /** Waits for the child to exit and returns its exit code. */
  public int awaitExit(Duration timeout) throws InterruptedException {
    if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      throw failure("still running after " + timeout.toMillis() + " ms");
    }
    return process.exitValue();
  }

  /**
   * Everything the child printed, once its output has ended (it exited): after {@link #awaitExit},
   * the last lines may still be on their way. Lines not awaited yet are no longer awaitable.
   */
  public String awaitOutput(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      String line = lines.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
      if (line == null) {
        throw failure("did not end its output within " + timeout.toMillis() + " ms");
      }
      if (line == END) {
        lines.add(END);
        return output();
      }
    }
  }

  /** Everything the child printed so far. */
  public String output() {
    return output.toString();
  }

  public long pid() {
    return process.pid();
  }

  /** Kills the child and says why, with all it printed. */
  public AssertionError failure(String why) {
    process.destroyForcibly();
    return new AssertionError(name + " " + why + "; its output:\n" + output);
  }

  /** Asks the child to stop (SIGTERM, so shutdown hooks run) and waits a little for it. */
  public void stop() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(10, TimeUnit.SECONDS)) {
      process.destroyForcibly();
    }
  }

  @Override
  public void close() {
    process.destroyForcibly();
  }
}
