package dev.sluice.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.it.agent.Settings;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Issue 22: the jars a web application bundles as published. sluice-filter holds the Filter only
 * and its POM asks for nothing at run time but sluice-core; sluice-core holds the engine with
 * SnakeYAML inside, relocated under dev.sluice.internal, and its POM (the shade plugin's reduced
 * one) asks for nothing; sluice-redis holds the Redis store with Jedis and its libraries inside,
 * relocated, and asks for sluice-core only. So a memory-only application carries no Jedis, and no
 * dependency management can swap any library Sluice runs on.
 */
class PublishedFilterJarIT {
  private static final Pattern DEPENDENCY =
      Pattern.compile(
          "<dependency>.*?<artifactId>(.*?)</artifactId>.*?</dependency>", Pattern.DOTALL);

  private static List<String> classesOf(String property) throws Exception {
    try (JarFile jar = new JarFile(Settings.builtFile(property).toFile())) {
      List<String> classes =
          jar.stream()
              .map(e -> e.getName())
              .filter(name -> name.endsWith(".class"))
              .collect(Collectors.toList());
      assertThat(classes)
          .as("classes outside dev/sluice/ in %s", property)
          .filteredOn(name -> !name.startsWith("dev/sluice/"))
          .isEmpty();
      return classes;
    }
  }

  /** The artifacts a POM asks for at run time: every dependency not provided nor test. */
  private static List<String> runtimeDependencies(String property) throws Exception {
    String pom = Files.readString(Settings.builtFile(property));
    Matcher dependency = DEPENDENCY.matcher(pom);
    List<String> runtime = new ArrayList<>();
    while (dependency.find()) {
      if (!dependency.group().matches("(?s).*<scope>(provided|test)</scope>.*")) {
        runtime.add(dependency.group(1));
      }
    }
    return runtime;
  }

  @Test
  void theFilterJarHoldsTheFilterOnly() throws Exception {
    assertThat(classesOf("sluice.it.filterJar"))
        .contains("dev/sluice/servlet/RateLimitFilter.class")
        .allMatch(name -> name.startsWith("dev/sluice/servlet/"));
    assertThat(classesOf("sluice.it.javaxFilterJar"))
        .contains("dev/sluice/servlet/RateLimitFilter.class")
        .allMatch(name -> name.startsWith("dev/sluice/servlet/"));
  }

  @Test
  void theEngineBundlesSnakeYamlAndNothingOfRedisNorServlets() throws Exception {
    assertThat(classesOf("sluice.it.coreJar"))
        .contains(
            "dev/sluice/config/LiveLimiter.class",
            "dev/sluice/store/RedisModule.class",
            "dev/sluice/internal/snakeyaml/Yaml.class")
        .noneMatch(name -> name.startsWith("dev/sluice/store/redis/"))
        .noneMatch(name -> name.startsWith("dev/sluice/internal/redis/"))
        .noneMatch(name -> name.startsWith("dev/sluice/servlet/"))
        .noneMatch(name -> name.startsWith("dev/sluice/simulate/"))
        .noneMatch(name -> name.startsWith("dev/sluice/publish/"));
  }

  @Test
  void theRedisStoreBundlesJedisAndItsLibrariesAndNothingOfTheEngine() throws Exception {
    assertThat(classesOf("sluice.it.redisJar"))
        .contains(
            "dev/sluice/store/redis/RedisStore.class",
            "dev/sluice/internal/redis/jedis/UnifiedJedis.class",
            "dev/sluice/internal/pool2/impl/GenericObjectPool.class",
            "dev/sluice/internal/slf4j/LoggerFactory.class",
            "dev/sluice/internal/slf4j/jul/JULServiceProvider.class")
        .allMatch(
            name ->
                name.startsWith("dev/sluice/store/redis/")
                    || name.startsWith("dev/sluice/internal/"))
        .noneMatch(name -> name.startsWith("dev/sluice/internal/snakeyaml/"));
    try (JarFile jar = new JarFile(Settings.builtFile("sluice.it.redisJar").toFile())) {
      String service =
          new String(
              jar.getInputStream(jar.getEntry("META-INF/services/dev.sluice.store.RedisModule"))
                  .readAllBytes());
      assertThat(service.trim()).isEqualTo("dev.sluice.store.redis.RedisStoreModule");
    }
  }

  @Test
  void thePublishedPomsAskForSluicesOwnArtifactsOnly() throws Exception {
    assertThat(runtimeDependencies("sluice.it.filterPom")).containsExactly("sluice-core");
    assertThat(Files.readString(Settings.builtFile("sluice.it.filterPom")))
        .contains("<artifactId>jakarta.servlet-api</artifactId>");
    assertThat(runtimeDependencies("sluice.it.corePom")).isEmpty();
    assertThat(runtimeDependencies("sluice.it.redisPom")).containsExactly("sluice-core");
  }
}
