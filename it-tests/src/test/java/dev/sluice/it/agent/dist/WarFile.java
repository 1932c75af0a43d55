package dev.sluice.it.agent.dist;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/** A web app directory packed as a WAR, for servers that deploy archives from a directory. */
final class WarFile {
  private WarFile() {}

  /** Writes the files under {@code app} to {@code war}, a zip with paths relative to app. */
  static void zip(Path app, Path war) throws IOException {
    try (OutputStream file = Files.newOutputStream(war);
        ZipOutputStream zip = new ZipOutputStream(file);
        Stream<Path> paths = Files.walk(app)) {
      for (Path path : paths.filter(Files::isRegularFile).sorted().toList()) {
        zip.putNextEntry(new ZipEntry(app.relativize(path).toString().replace('\\', '/')));
        Files.copy(path, zip);
        zip.closeEntry();
      }
    }
  }
}
