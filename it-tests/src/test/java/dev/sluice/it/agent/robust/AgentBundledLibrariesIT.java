package dev.sluice.it.agent.robust;

import static dev.sluice.it.agent.robust.Limits.HELLO_LIMIT;
import static dev.sluice.it.agent.robust.Limits.HELLO_RULES;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.it.agent.AgentContainer;
import dev.sluice.it.agent.AgentServer;
import dev.sluice.it.agent.AgentWebApp;
import dev.sluice.it.agent.BundledLibraries;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * An app that bundles its own Jedis, SnakeYAML and SLF4J (with slf4j-simple) in WEB-INF/lib, in
 * other versions than the agent's, keeps working on them while the agent limits it: the agent's
 * copies live in a class loader of their own, relocated, and never meet the app's. The app's
 * LibrariesServlet reports what it sees; Maven copies the jars (see bundled-libs in the pom).
 */
class AgentBundledLibrariesIT {
  /** Key in the servlet's report, artifact and a class of it on this JVM's class path. */
  private static final String[][] LIBRARIES = {
    {"jedis", "jedis", "redis.clients.jedis.Jedis"},
    {"snakeyaml", "snakeyaml", "org.yaml.snakeyaml.Yaml"},
    {"slf4j", "slf4j-api", "org.slf4j.LoggerFactory"},
  };

  @ParameterizedTest
  @EnumSource(names = {"TOMCAT_11", "TOMCAT_9"})
  void theAppUsesItsOwnLibrariesWhileTheAgentLimits(AgentContainer container) throws Exception {
    AgentWebApp app = AgentWebApp.create(container, HELLO_RULES, BundledLibraries.SERVLET);
    try (AgentRun run = new AgentRun(app)) {
      Map<String, String> versions = BundledLibraries.bundle(app);
      AgentServer server = run.start(container);

      HttpResponse<String> response = server.http().get("/libraries", "10.26.0.1");
      assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
      Map<String, String> seen = BundledLibraries.parse(response.body());
      Path lib = app.dir().resolve("WEB-INF/lib");
      for (String[] library : LIBRARIES) {
        String key = library[0];
        String version = versions.get(library[1]);
        assertThat(seen)
            .as("what the app sees of %s: %s", key, response.body())
            .containsEntry(
                key + ".jar", lib.resolve(library[1] + "-" + version + ".jar").toString())
            .containsEntry(key + ".pomVersion", version)
            .containsEntry(key + ".fromWebAppLoader", "true");
        assertThat(version)
            .as("the bundled %s differs from the agent's", library[1])
            .isNotEqualTo(versionOnThisClassPath(library[2]));
      }
      assertThat(seen)
          .containsEntry("slf4j.implementationVersion", versions.get("slf4j-api"))
          .containsEntry("jedis.hostAndPort", "127.0.0.1:6379")
          .containsEntry("snakeyaml.load", "{answer=42}")
          .containsEntry("slf4j.logger", "org.slf4j.impl.SimpleLogger")
          .doesNotContainKeys("jedis.error", "snakeyaml.error", "slf4j.error", "use.error");
      Logs.await(server, "INFO libraries - LibrariesServlet probed");

      Limits.assertLimitedTo(server.http(), "/api/hello", "10.26.0.2", HELLO_LIMIT, "hello");
      AgentRun.assertStartedCleanly(server);
    }
  }

  /**
   * The version of the library holding {@code className} on this JVM's class path, where Sluice's
   * own dependencies are: what the agent is built with, give or take Maven's choice among them.
   */
  private static String versionOnThisClassPath(String className) throws Exception {
    Class<?> type = Class.forName(className, false, AgentBundledLibrariesIT.class.getClassLoader());
    Path jar = Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
    try (JarFile file = new JarFile(jar.toFile())) {
      JarEntry entry =
          file.stream()
              .filter(e -> e.getName().matches("META-INF/maven/.*/pom\\.properties"))
              .findFirst()
              .orElseThrow(() -> new AssertionError("no pom.properties in " + jar));
      Properties properties = new Properties();
      try (InputStream in = file.getInputStream(entry)) {
        properties.load(in);
      }
      return properties.getProperty("version");
    }
  }
}
