package dev.sluice.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How the engine finds the Redis module, and what it says when it cannot use one. */
class RedisModuleLookUpTest {
  @TempDir Path dir;

  private final ClassLoader engine = RedisModuleLookUpTest.class.getClassLoader();

  /** A loader above which {@code provider} is declared as the Redis module. */
  private ClassLoader declaring(String provider) throws IOException {
    Path services = Files.createDirectories(dir.resolve("META-INF/services"));
    Files.writeString(services.resolve(RedisModule.class.getName()), provider + "\n");
    return new URLClassLoader(new URL[] {dir.toUri().toURL()}, engine);
  }

  /**
   * A sluice-redis of another version whose provider no longer fits: said, with its cause, where
   * every use used to get a NoClassDefFoundError from a failed class initialisation.
   */
  @Test
  void aModuleThatCannotBeLoadedIsAProblemNamingItsCause() throws Exception {
    RedisModuleFound found =
        RedisModuleFound.lookUp(declaring("dev.sluice.store.RedisModuleOfAnotherVersion"), null);

    assertThat(found.module).isNull();
    assertThat(found.problem)
        .startsWith(
            "store.type: redis needs the Redis store, and the one on the class path cannot be"
                + " loaded (java.util.ServiceConfigurationError: dev.sluice.store.RedisModule:")
        .contains("dev.sluice.store.RedisModuleOfAnotherVersion")
        .endsWith(
            "dev.sluice:sluice-redis must be the version of sluice-core, loaded by the same"
                + " class loader");
  }

  @Test
  void noModuleSaysWhatToAdd() {
    RedisModuleFound found = RedisModuleFound.lookUp(engine, engine);
    assertThat(found.module).isNull();
    assertThat(found.problem).isEqualTo(RedisModule.MISSING);
  }

  /** sluice-core in Tomcat's lib/, sluice-redis in WEB-INF/lib: not used, but said. */
  @Test
  void aModuleOnlyTheApplicationSeesIsNotUsedButSaid() throws Exception {
    ClassLoader webApp = declaring(FakeRedisModule.class.getName());
    assertThat(RedisModule.in(webApp)).isInstanceOf(FakeRedisModule.class);

    RedisModuleFound found = RedisModuleFound.lookUp(engine, webApp);

    assertThat(found.module).isNull();
    assertThat(found.problem)
        .startsWith(RedisModule.MISSING)
        .endsWith(
            "; there is one in the application's own class path, but sluice-core is loaded by a"
                + " loader above it (a server's lib/): put dev.sluice:sluice-redis beside"
                + " sluice-core, or both in the application");
  }

  @Test
  void aModuleTheEngineSeesIsUsed() throws Exception {
    RedisModuleFound found =
        RedisModuleFound.lookUp(declaring(FakeRedisModule.class.getName()), null);
    assertThat(found.module).isInstanceOf(FakeRedisModule.class);
    assertThat(found.problem).isNull();
  }

  /** A provider of the module, for the lookup only. */
  public static final class FakeRedisModule implements RedisModule {
    @Override
    public Store open(
        RedisTarget target,
        String keyPrefix,
        int fleetSize,
        int fleetMin,
        Clock clock,
        long maxLocalKeys) {
      throw new UnsupportedOperationException();
    }

    @Override
    public RulesPublication publishedRules(
        RedisTarget target, String keyPrefix, int timeoutMillis) {
      throw new UnsupportedOperationException();
    }
  }
}
