package dev.sluice.spring;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigLocationTest {
  @TempDir Path workingDirectory;
  @TempDir Path classes;

  private ClassLoader loader() throws Exception {
    return new URLClassLoader(new URL[] {classes.toUri().toURL()}, null);
  }

  @Test
  void aGivenLocationIsTakenAsWritten() throws Exception {
    assertThat(ConfigLocation.resolve(" classpath:x.yaml ", workingDirectory, loader()))
        .isEqualTo("classpath:x.yaml");
  }

  @Test
  void theWorkingDirectorysFileComesBeforeTheClassPaths() throws Exception {
    Files.writeString(classes.resolve("ratelimit.yaml"), "rules: []\n");
    assertThat(ConfigLocation.resolve(null, workingDirectory, loader()))
        .as("only on the class path")
        .isEqualTo("classpath:ratelimit.yaml");
    Files.writeString(workingDirectory.resolve("ratelimit.yaml"), "rules: []\n");
    assertThat(ConfigLocation.resolve("", workingDirectory, loader())).isEqualTo("ratelimit.yaml");
  }

  @Test
  void withNeitherTheWorkingDirectorysIsWatchedForOne() throws Exception {
    assertThat(ConfigLocation.resolve(null, workingDirectory, loader()))
        .isEqualTo("ratelimit.yaml");
  }
}
