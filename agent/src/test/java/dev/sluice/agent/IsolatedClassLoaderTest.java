package dev.sluice.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.net.URLConnection;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IsolatedClassLoaderTest {
  @TempDir Path dir;

  private byte[] zBytes;
  private URL location;
  private JarFile jar;
  private IsolatedClassLoader loader;

  /**
   * A jar laid out as the agent's: x.y.Z and x.y.W under inst/ as .classdata, a service file under
   * inst/, and x.y.Outside as a plain class file outside inst/.
   */
  @BeforeEach
  void buildJar() throws IOException {
    Path src = Files.createDirectories(dir.resolve("src/x/y"));
    Map<String, String> sources =
        Map.of(
            "Z",
            "public class Z implements java.util.function.Supplier<Object> {"
                + " public Object get() { return new W(); } }",
            "W",
            "class W {}",
            "Outside",
            "public class Outside {}");
    Path classes = dir.resolve("classes");
    List<String> javacArgs = new ArrayList<>(List.of("-d", classes.toString()));
    for (Map.Entry<String, String> source : sources.entrySet()) {
      Path file = src.resolve(source.getKey() + ".java");
      Files.writeString(file, "package x.y; " + source.getValue());
      javacArgs.add(file.toString());
    }
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    assertThat(javac.run(null, null, null, javacArgs.toArray(new String[0]))).as("javac").isZero();
    zBytes = Files.readAllBytes(classes.resolve("x/y/Z.class"));

    Path jarPath = dir.resolve("agent.jar");
    try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jarPath))) {
      put(out, "inst/x/y/Z.classdata", zBytes);
      put(out, "inst/x/y/W.classdata", Files.readAllBytes(classes.resolve("x/y/W.class")));
      put(out, "inst/META-INF/services/foo", "x.y.Z\n".getBytes(StandardCharsets.UTF_8));
      put(out, "x/y/Outside.class", Files.readAllBytes(classes.resolve("x/y/Outside.class")));
      put(out, "top.txt", "outside\n".getBytes(StandardCharsets.UTF_8));
    }
    location = jarPath.toUri().toURL();
    jar = new JarFile(jarPath.toFile());
    loader = new IsolatedClassLoader(jar, location);
  }

  private static void put(JarOutputStream out, String name, byte[] bytes) throws IOException {
    out.putNextEntry(new JarEntry(name));
    out.write(bytes);
    out.closeEntry();
  }

  @AfterEach
  void closeJar() throws IOException {
    jar.close();
  }

  private static byte[] read(URL url) throws IOException {
    URLConnection connection = url.openConnection();
    connection.setUseCaches(false); // or the JDK keeps the temporary jar open
    try (InputStream in = connection.getInputStream()) {
      return in.readAllBytes();
    }
  }

  @Test
  void aClassUnderInstIsDefinedByTheIsolatedLoader() throws Exception {
    Class<?> z = loader.loadClass("x.y.Z");
    assertThat(z.getClassLoader()).isSameAs(loader);
    assertThat(z.getPackage().getName()).isEqualTo("x.y");
    assertThat(z.getProtectionDomain().getCodeSource().getLocation()).isEqualTo(location);
    assertThat(loader.loadClass("x.y.Z")).isSameAs(z);
  }

  @Test
  void aClassItLoadsLinksToItsNeighboursInTheSameLoader() throws Exception {
    @SuppressWarnings("unchecked")
    Supplier<Object> z =
        (Supplier<Object>) loader.loadClass("x.y.Z").getDeclaredConstructor().newInstance();
    Object w = z.get();
    assertThat(w.getClass().getName()).isEqualTo("x.y.W");
    assertThat(w.getClass().getClassLoader()).isSameAs(loader);
  }

  @Test
  void theClassFileResourceMapsToItsClassdataEntry() throws IOException {
    URL url = loader.getResource("x/y/Z.class");
    assertThat(url).hasToString("jar:" + location + "!/inst/x/y/Z.classdata");
    assertThat(read(url)).isEqualTo(zBytes);
  }

  @Test
  void aResourceUnderInstIsFound() throws IOException {
    URL url = loader.getResource("META-INF/services/foo");
    assertThat(url).hasToString("jar:" + location + "!/inst/META-INF/services/foo");
    assertThat(new String(read(url), StandardCharsets.UTF_8)).isEqualTo("x.y.Z\n");
    assertThat(Collections.list(loader.getResources("META-INF/services/foo"))).containsExactly(url);
  }

  @Test
  void nothingOutsideInstIsVisible() throws IOException {
    assertThatThrownBy(() -> loader.loadClass("x.y.Outside"))
        .isInstanceOf(ClassNotFoundException.class);
    assertThat(loader.getResource("top.txt")).isNull();
    assertThat(loader.getResource("x/y/Outside.class")).isNull();
    assertThat(Collections.list(loader.getResources("top.txt"))).isEmpty();
  }

  @Test
  void itsParentIsThePlatformLoaderSoTheJdkLoadsButNotTheApplication() throws Exception {
    assertThat(loader.getParent()).isSameAs(ClassLoader.getPlatformClassLoader());
    assertThat(loader.loadClass("java.lang.String")).isSameAs(String.class);
    assertThat(loader.loadClass("java.sql.Connection").getClassLoader())
        .isSameAs(ClassLoader.getPlatformClassLoader());
    assertThatThrownBy(() -> loader.loadClass(IsolatedClassLoaderTest.class.getName()))
        .isInstanceOf(ClassNotFoundException.class);
    assertThatThrownBy(() -> loader.loadClass(AgentMain.class.getName()))
        .isInstanceOf(ClassNotFoundException.class);
    assertThat(loader.getResource("org/assertj/core/api/Assertions.class")).isNull();
  }

  @Test
  void seesTheJdkOnlyAlsoUnderACustomSystemClassLoader() throws IOException {
    // -Djava.system.class.loader=...: the application's own loader on top of the JDK's one.
    try (URLClassLoader custom =
        new URLClassLoader(new URL[] {location}, ClassLoader.getSystemClassLoader())) {
      assertThat(IsolatedClassLoader.jdkLoaderAbove(custom))
          .isSameAs(ClassLoader.getPlatformClassLoader());
    }
    assertThat(IsolatedClassLoader.jdkLoaderAbove(ClassLoader.getSystemClassLoader()))
        .isSameAs(ClassLoader.getPlatformClassLoader());
  }

  @Test
  void aSystemClassLoaderWithoutParentLeavesTheBootLoaderAlone() throws IOException {
    try (URLClassLoader orphan = new URLClassLoader(new URL[] {location}, null)) {
      assertThat(IsolatedClassLoader.jdkLoaderAbove(orphan)).isNull();
    }
  }
}
