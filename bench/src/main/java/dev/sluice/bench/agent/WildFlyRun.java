package dev.sluice.bench.agent;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/**
 * A WildFly distribution, started by its own {@code bin/standalone.sh} with a server directory of
 * its own (a copy of {@code standalone/}, {@code JBOSS_BASE_DIR}) and the options added after
 * {@code standalone.conf}'s defaults, bound to 127.0.0.1 with a port offset whose ports are free.
 * WildFly ships no sample app: {@code app.war} holds one static page, which Undertow's default
 * servlet serves (so the request passes the servlet layer, where the agent checks it).
 */
final class WildFlyRun extends ServerRun {
  private static final String HELLO = "/app/hello.html";
  private static final Pattern STARTED = Pattern.compile("WFLYSRV0025: .* started in ([0-9]+)ms");
  private static final int[] PORTS = {8080, 8443, 9990, 9993};

  private final Path home;
  private int offset;

  WildFlyRun(Path home) {
    this.home = home;
  }

  @Override
  String hello() {
    return HELLO;
  }

  @Override
  String jsp() {
    return null;
  }

  @Override
  Pattern serverStarted() {
    return STARTED;
  }

  @Override
  int port() {
    return 8080 + offset;
  }

  /** standalone.sh runs the JVM as its child (LAUNCH_JBOSS_IN_BACKGROUND). */
  @Override
  long jvmPid(Process started) {
    return started
        .descendants()
        .filter(p -> p.info().command().map(c -> c.endsWith("/java")).orElse(false))
        .findFirst()
        .orElseThrow(() -> new IllegalStateException("no java process under standalone.sh"))
        .pid();
  }

  @Override
  ProcessBuilder prepare(Path root, String jvmOptions) throws IOException {
    Path base = root.resolve("standalone");
    copyTree(home.resolve("standalone"), base);
    try (OutputStream file = Files.newOutputStream(base.resolve("deployments/app.war"));
        ZipOutputStream war = new ZipOutputStream(file)) {
      war.putNextEntry(new ZipEntry("hello.html"));
      war.write("hello\n".getBytes(StandardCharsets.US_ASCII));
      war.closeEntry();
    }
    Path conf = root.resolve("standalone.conf");
    Files.writeString(
        conf,
        Files.readString(home.resolve("bin/standalone.conf"))
            + "\nJAVA_OPTS=\"$JAVA_OPTS "
            + jvmOptions
            + "\"\n");
    offset = freeOffset();
    ProcessBuilder builder =
        new ProcessBuilder(
                "/bin/sh",
                home.resolve("bin/standalone.sh").toString(),
                "-b",
                "127.0.0.1",
                "-bmanagement",
                "127.0.0.1",
                "-Djboss.socket.binding.port-offset=" + offset)
            .directory(root.toFile());
    builder.environment().put("JAVA", Path.of(System.getProperty("java.home"), "bin", "java").toString());
    builder.environment().put("JBOSS_HOME", home.toString());
    builder.environment().put("JBOSS_BASE_DIR", base.toString());
    builder.environment().put("LAUNCH_JBOSS_IN_BACKGROUND", "true");
    builder.environment().put("RUN_CONF", conf.toString());
    builder.environment().remove("JAVA_OPTS");
    return builder;
  }

  /** An offset that puts all of {@link #PORTS} on free ports of 127.0.0.1 (free when checked). */
  private static int freeOffset() throws IOException {
    for (int attempt = 0; attempt < 50; attempt++) {
      // Below Linux's ephemeral ports (32768 on): there a client socket may take one after the
      // check, as happened on a busy machine (WildFly then boots "with errors", without HTTP).
      int candidate = ThreadLocalRandom.current().nextInt(1_000, 32_768 - 9993);
      boolean allFree = true;
      for (int port : PORTS) {
        allFree &= free(port + candidate);
      }
      if (allFree) {
        return candidate;
      }
    }
    throw new IllegalStateException("no port offset with WildFly's ports all free");
  }

  private static boolean free(int port) {
    try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
      return true;
    } catch (IOException e) {
      return false;
    }
  }
}
