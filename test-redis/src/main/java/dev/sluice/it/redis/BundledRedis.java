package dev.sluice.it.redis;

import static java.nio.file.StandardCopyOption.ATOMIC_MOVE;
import static java.nio.file.StandardCopyOption.REPLACE_EXISTING;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Locale;
import java.util.Map;

/**
 * The redis-server carried by the test dependency {@code com.github.codemonstur:embedded-redis}
 * (Redis 6.2 for Linux and macOS, x86-64 and arm64): the last resort, so that a machine with a JDK
 * and nothing else runs every test. Copied out of the jar into {@code target/redis-bin} of the
 * module whose tests run (the working directory of Maven's test JVMs), once: test JVMs may race to
 * copy it, so each writes a file of its own and renames it into place, and none ever runs a
 * half-written binary.
 */
final class BundledRedis {
  static final String SOURCE = "the redis-server bundled in com.github.codemonstur:embedded-redis";
  private static final Path DIR = Path.of("target", "redis-bin").toAbsolutePath();

  /** The jar's resource for each {@code os.name} family and {@code os.arch}, as Java names them. */
  private static final Map<String, String> RESOURCES =
      Map.of(
          "linux amd64", "redis-server-6.2.6-v5-linux-amd64",
          "linux aarch64", "redis-server-6.2.7-linux-arm64",
          "mac x86_64", "redis-server-6.2.6-v5-darwin-amd64",
          "mac aarch64", "redis-server-6.2.6-v5-darwin-arm64");

  private BundledRedis() {}

  /** The binary for this machine, copied out of the jar unless an earlier run did so already. */
  static Path extract() {
    return extract(DIR, resourceFor(System.getProperty("os.name"), System.getProperty("os.arch")));
  }

  static String resourceFor(String osName, String osArch) {
    String os = osName.toLowerCase(Locale.ROOT);
    String family = os.startsWith("linux") ? "linux" : os.startsWith("mac") ? "mac" : os;
    String resource = RESOURCES.get(family + " " + osArch);
    if (resource == null) {
      throw new IllegalStateException(
          "embedded-redis has no redis-server for "
              + osName
              + " on "
              + osArch
              + " (it has "
              + RESOURCES.keySet()
              + ")");
    }
    return resource;
  }

  static Path extract(Path dir, String resource) {
    Path binary = dir.resolve(resource);
    if (Files.isExecutable(binary)) {
      return binary;
    }
    Path part = null;
    try (InputStream in = BundledRedis.class.getResourceAsStream("/" + resource)) {
      if (in == null) {
        throw new IllegalStateException(
            resource
                + " is not on the test class path: is com.github.codemonstur:embedded-redis a"
                + " dependency of this module, in a version that carries it?");
      }
      Files.createDirectories(dir);
      part = Files.createTempFile(dir, resource, ".part");
      Files.copy(in, part, REPLACE_EXISTING);
      Files.setPosixFilePermissions(part, PosixFilePermissions.fromString("rwxr-xr-x"));
      Files.move(part, binary, ATOMIC_MOVE, REPLACE_EXISTING);
      return binary;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot copy " + resource + " to " + dir, e);
    } finally {
      if (part != null) {
        part.toFile().delete();
      }
    }
  }
}
