package dev.sluice.it;

import dev.sluice.it.redis.Ports;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A real nginx (Debian's {@code nginx} package) in the foreground, one process, with a prefix and
 * config of its own in a temporary directory: one loopback port per named {@code server} block,
 * each proxying to an upstream on loopback. Without nginx the test fails, saying what to install.
 */
final class Nginx implements AutoCloseable {
  private static final long START_MILLIS = 10_000;
  private static final int ATTEMPTS = 3;

  private final Process process;
  private final Path prefix;
  private final Map<String, Integer> ports;

  private Nginx(Process process, Path prefix, Map<String, Integer> ports) {
    this.process = process;
    this.prefix = prefix;
    this.ports = ports;
  }

  /**
   * Starts nginx with one server per entry of {@code locations}: its name, and the directives of
   * its {@code location /} ({@code proxy_pass} and the headers it sets).
   */
  static Nginx start(Map<String, String> locations) throws Exception {
    Path binary = binary();
    for (int attempt = 1; ; attempt++) {
      Path prefix = Files.createTempDirectory("sluice-nginx");
      Map<String, Integer> ports = new LinkedHashMap<>();
      for (String name : locations.keySet()) {
        ports.put(name, Ports.free());
      }
      Files.createDirectories(prefix.resolve("logs"));
      Files.createDirectories(prefix.resolve("temp"));
      Files.writeString(prefix.resolve("nginx.conf"), config(prefix, locations, ports));
      Process process =
          new ProcessBuilder(
                  binary.toString(), "-p", prefix.toString(), "-c", "nginx.conf", "-e", "stderr")
              .redirectErrorStream(true)
              .redirectOutput(prefix.resolve("logs").resolve("output.log").toFile())
              .start();
      Nginx nginx = new Nginx(process, prefix, ports);
      String failure = nginx.awaitListening();
      if (failure == null) {
        return nginx;
      }
      nginx.close();
      // Another process may have taken a port between Ports.free() and nginx binding it.
      if (attempt == ATTEMPTS || !failure.contains("Address already in use")) {
        throw new IllegalStateException("nginx did not start:\n" + failure);
      }
    }
  }

  /** The port of the server named {@code name}. */
  int port(String name) {
    Integer port = ports.get(name);
    if (port == null) {
      throw new IllegalArgumentException("no server " + name + " in " + ports.keySet());
    }
    return port;
  }

  private static Path binary() {
    List<Path> candidates = new ArrayList<>();
    for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
      if (!dir.isEmpty()) {
        candidates.add(Paths.get(dir, "nginx"));
      }
    }
    candidates.add(Paths.get("/usr/sbin/nginx")); // Debian's, off a non-root user's PATH
    for (Path candidate : candidates) {
      if (Files.isExecutable(candidate)) {
        return candidate;
      }
    }
    throw new IllegalStateException(
        "nginx is needed to test Sluice behind a reverse proxy and was found neither on the PATH"
            + " nor at /usr/sbin/nginx: install Debian's nginx package (apt-get install nginx)");
  }

  private static String config(
      Path prefix, Map<String, String> locations, Map<String, Integer> ports) {
    StringBuilder servers = new StringBuilder();
    for (Map.Entry<String, String> location : locations.entrySet()) {
      servers.append(
          String.format(
              "  server {%n    listen 127.0.0.1:%d;%n    location / {%n%s%n    }%n  }%n",
              ports.get(location.getKey()), location.getValue()));
    }
    String temp = prefix.resolve("temp").toString();
    return String.format(
        "daemon off;%nmaster_process off;%nerror_log stderr notice;%npid %s;%n"
            + "events { worker_connections 64; }%n"
            + "http {%n  access_log off;%n  client_body_temp_path %s/body;%n"
            + "  proxy_temp_path %s/proxy;%n  fastcgi_temp_path %s/fastcgi;%n"
            + "  uwsgi_temp_path %s/uwsgi;%n  scgi_temp_path %s/scgi;%n%s}%n",
        prefix.resolve("nginx.pid"), temp, temp, temp, temp, temp, servers);
  }

  /** Null once every port accepts connections; else what nginx said before it gave up. */
  private String awaitListening() throws Exception {
    long deadline = System.currentTimeMillis() + START_MILLIS;
    for (int port : ports.values()) {
      while (!accepts(port)) {
        if (!process.isAlive() || System.currentTimeMillis() > deadline) {
          return (process.isAlive() ? "not listening on " + port + " within 10 s\n" : "")
              + output();
        }
        Thread.sleep(20);
      }
    }
    return null;
  }

  private static boolean accepts(int port) {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  private String output() throws IOException {
    Path log = prefix.resolve("logs").resolve("output.log");
    return Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "";
  }

  @Override
  public void close() throws Exception {
    process.destroy();
    if (!process.waitFor(5, TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
    }
    WebApp.deleteTree(prefix);
  }
}
