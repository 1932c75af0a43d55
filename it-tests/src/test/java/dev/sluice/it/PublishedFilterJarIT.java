package dev.sluice.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.it.agent.Settings;
import java.nio.file.Files;
import java.util.List;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Issue 22: the jakarta sluice-filter jar as published carries its libraries inside, relocated
 * under dev.sluice.internal, and its POM (the shade plugin's reduced one) asks the application's
 * build for nothing at run time, so no dependency management can swap them.
 */
class PublishedFilterJarIT {
  private static final Pattern DEPENDENCY =
      Pattern.compile(
          "<dependency>.*?<artifactId>(.*?)</artifactId>.*?</dependency>", Pattern.DOTALL);

  @Test
  void everyClassIsSluicesAndItsLibrariesAreRelocatedInside() throws Exception {
    try (JarFile jar = new JarFile(Settings.builtFile("sluice.it.filterJar").toFile())) {
      List<String> classes =
          jar.stream()
              .map(e -> e.getName())
              .filter(name -> name.endsWith(".class"))
              .collect(Collectors.toList());
      assertThat(classes)
          .as("classes outside dev/sluice/")
          .filteredOn(name -> !name.startsWith("dev/sluice/"))
          .isEmpty();
      assertThat(classes)
          .contains(
              "dev/sluice/internal/redis/jedis/UnifiedJedis.class",
              "dev/sluice/internal/snakeyaml/Yaml.class",
              "dev/sluice/internal/pool2/impl/GenericObjectPool.class",
              "dev/sluice/internal/slf4j/LoggerFactory.class",
              "dev/sluice/internal/slf4j/jul/JULServiceProvider.class");
    }
  }

  @Test
  void thePublishedPomNamesNothingForRunTime() throws Exception {
    String pom = Files.readString(Settings.builtFile("sluice.it.filterPom"));
    Matcher dependency = DEPENDENCY.matcher(pom);
    while (dependency.find()) {
      assertThat(dependency.group())
          .as("a dependency of the published POM: %s", dependency.group(1))
          .containsPattern("<scope>(provided|test)</scope>");
    }
    assertThat(pom).contains("<artifactId>jakarta.servlet-api</artifactId>");
  }
}
