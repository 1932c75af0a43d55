package dev.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.InputStream;
import java.io.RandomAccessFile;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigSourceTest {
  private static final ClassLoader LOADER = ConfigSourceTest.class.getClassLoader();
  private static final Map<String, String> ENV = Map.of(ConfigSource.ENVIRONMENT, "from-env.yaml");

  @TempDir Path dir;
  private String savedProperty;

  @BeforeEach
  void saveProperty() {
    savedProperty = System.getProperty(ConfigSource.PROPERTY);
    System.clearProperty(ConfigSource.PROPERTY);
  }

  @AfterEach
  void restoreProperty() {
    if (savedProperty == null) {
      System.clearProperty(ConfigSource.PROPERTY);
    } else {
      System.setProperty(ConfigSource.PROPERTY, savedProperty);
    }
  }

  @Test
  void initParamComesFirst() {
    System.setProperty(ConfigSource.PROPERTY, "from-property.yaml");
    assertThat(ConfigSource.locate("from-param.yaml", ENV, LOADER).file())
        .isEqualTo(Paths.get("from-param.yaml"));
  }

  @Test
  void systemPropertyComesSecond() {
    System.setProperty(ConfigSource.PROPERTY, "from-property.yaml");
    assertThat(ConfigSource.locate(null, ENV, LOADER).file())
        .isEqualTo(Paths.get("from-property.yaml"));
  }

  @Test
  void environmentComesThird() {
    assertThat(ConfigSource.locate(null, ENV, LOADER).file()).isEqualTo(Paths.get("from-env.yaml"));
  }

  @Test
  void workingDirectoryFileComesLast() {
    ConfigSource source = ConfigSource.locate(null, Map.of(), LOADER);
    assertThat(source.file()).isEqualTo(Paths.get("ratelimit.yaml"));
    assertThat(source.name()).isEqualTo("ratelimit.yaml");
  }

  @Test
  void blankValuesAreNotGiven() {
    System.setProperty(ConfigSource.PROPERTY, "  ");
    assertThat(ConfigSource.locate(" ", ENV, LOADER).file()).isEqualTo(Paths.get("from-env.yaml"));
    assertThat(ConfigSource.locate("", Map.of(ConfigSource.ENVIRONMENT, ""), LOADER).file())
        .isEqualTo(Paths.get("ratelimit.yaml"));
  }

  @Test
  void fileIsReadAndWatched() throws Exception {
    Path file = Files.writeString(dir.resolve("rl.yaml"), "rules: []\n");
    ConfigSource source = ConfigSource.of(file.toString(), LOADER);
    assertThat(source.file()).isEqualTo(file);
    assertThat(source.read()).isEqualTo("rules: []\n".getBytes(StandardCharsets.UTF_8));
    assertThat(source).hasToString(file.toString());
  }

  @Test
  void missingFileReadsAsNull() throws Exception {
    assertThat(ConfigSource.of(dir.resolve("absent.yaml").toString(), LOADER).read()).isNull();
  }

  @Test
  void classpathResourceOnDiskIsAWatchedFile() throws Exception {
    ConfigSource source = ConfigSource.locate("classpath:sluice-test/ratelimit.yaml", ENV, LOADER);
    assertThat(source.file()).isNotNull().isRegularFile();
    assertThat(source.file().endsWith(Paths.get("sluice-test", "ratelimit.yaml"))).isTrue();
    assertThat(source.name()).isEqualTo(source.file().toString());
    assertThat(new String(source.read(), StandardCharsets.UTF_8)).contains("id: from-classpath");
  }

  @Test
  void classpathLeadingSlashIsIgnored() throws Exception {
    ConfigSource source = ConfigSource.of("classpath:/sluice-test/ratelimit.yaml", LOADER);
    assertThat(source.file()).isNotNull();
    assertThat(source.read()).isNotEmpty();
  }

  @Test
  void classpathResourceInAJarIsReadButNotWatched() throws Exception {
    Path jar = dir.resolve("config.jar");
    try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
      out.putNextEntry(new JarEntry("in-jar/ratelimit.yaml"));
      out.write("rules: []\n".getBytes(StandardCharsets.UTF_8));
      out.closeEntry();
    }
    try (URLClassLoader loader = new URLClassLoader(new URL[] {jar.toUri().toURL()}, null)) {
      ConfigSource source = ConfigSource.of("classpath:in-jar/ratelimit.yaml", loader);
      assertThat(source.file()).isNull();
      assertThat(source.name()).isEqualTo("classpath:in-jar/ratelimit.yaml");
      assertThat(source.read()).isEqualTo("rules: []\n".getBytes(StandardCharsets.UTF_8));
    }
  }

  @Test
  void missingClasspathResourceReadsAsNull() throws Exception {
    ConfigSource source = ConfigSource.of("classpath:sluice-test/absent.yaml", LOADER);
    assertThat(source.file()).isNull();
    assertThat(source.read()).isNull();
    assertThat(ConfigSource.of("classpath:x.yaml", null).read()).isNull();
  }

  @Test
  void largeResourceIsReadWhole() throws Exception {
    byte[] content = "# padding\n".repeat(5000).getBytes(StandardCharsets.UTF_8);
    Path jar = dir.resolve("big.jar");
    try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
      out.putNextEntry(new JarEntry("big.yaml"));
      out.write(content);
      out.closeEntry();
    }
    try (URLClassLoader loader = new URLClassLoader(new URL[] {jar.toUri().toURL()}, null)) {
      assertThat(ConfigSource.of("classpath:big.yaml", loader).read()).isEqualTo(content);
    }
  }

  @Test
  void aFileOverOneMebibyteIsRejectedUnread() throws Exception {
    Path file = dir.resolve("huge.yaml");
    try (RandomAccessFile huge = new RandomAccessFile(file.toFile(), "rw")) {
      huge.setLength(300L << 20); // sparse: 300 MB that take no disk and no time to make
    }
    assertThatThrownBy(() -> ConfigSource.of(file.toString(), LOADER).read())
        .isInstanceOf(InvalidConfigException.class)
        .hasMessage(
            file + ": the file is larger than 1 MiB (1048576 bytes), the most Sluice reads");
  }

  @Test
  void aFileOfExactlyOneMebibyteIsRead() throws Exception {
    Path file = Files.write(dir.resolve("full.yaml"), new byte[ConfigSource.MAX_BYTES]);
    assertThat(ConfigSource.of(file.toString(), LOADER).read()).hasSize(ConfigSource.MAX_BYTES);
  }

  @Test
  void aStreamWithoutEndIsCutJustPastTheLimit() {
    CountingEndlessStream endless = new CountingEndlessStream();
    assertThatThrownBy(() -> ConfigSource.readBounded(endless, "endless"))
        .isInstanceOf(InvalidConfigException.class)
        .hasMessageStartingWith("endless: the file is larger than 1 MiB");
    assertThat(endless.served)
        .isBetween((long) ConfigSource.MAX_BYTES, ConfigSource.MAX_BYTES + 8192L);
  }

  @Test
  void aResourceOverOneMebibyteIsRejected() throws Exception {
    Path jar = dir.resolve("huge.jar");
    try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
      out.putNextEntry(new JarEntry("huge.yaml"));
      out.write(new byte[ConfigSource.MAX_BYTES + 1]);
      out.closeEntry();
    }
    try (URLClassLoader loader = new URLClassLoader(new URL[] {jar.toUri().toURL()}, null)) {
      assertThatThrownBy(() -> ConfigSource.of("classpath:huge.yaml", loader).read())
          .isInstanceOf(InvalidConfigException.class)
          .hasMessageContaining("larger than 1 MiB");
    }
  }

  /** Spaces forever, counting what it served. */
  private static final class CountingEndlessStream extends InputStream {
    long served;

    @Override
    public int read() {
      served++;
      return ' ';
    }

    @Override
    public int read(byte[] buffer, int offset, int length) {
      java.util.Arrays.fill(buffer, offset, offset + length, (byte) ' ');
      served += length;
      return length;
    }
  }
}
