package dev.sluice.agent.install;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.LogCapture;
import java.net.URL;
import javax.servlet.FilterChain;
import javax.servlet.ServletRequest;
import javax.servlet.ServletResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class ServletEntryTypesTest {
  private final LogCapture log = LogCapture.of(AgentLog.NAME);
  private final ServletEntryTypes types = new ServletEntryTypes("javax/servlet", new BridgeCheck());
  private final String chain = Chain.class.getName().replace('.', '/');
  private final String[] entry = {"javax/servlet/FilterChain"};

  /** A class loader that sees the servlet API but, as a JBoss module may, not the bridge. */
  private final ClassLoader module =
      new ClassLoader(ServletEntryTypesTest.class.getClassLoader()) {
        @Override
        public URL getResource(String name) {
          return name.startsWith("dev/sluice/agent/bootstrap/") ? null : super.getResource(name);
        }
      };

  @BeforeAll
  static void logging() {
    AgentLog.open(); // a test JVM's logging is set up
  }

  @AfterEach
  void stopCapturing() {
    log.close();
  }

  @Test
  void aFilterChainIsAnEntryWhereTheBridgeIsVisible() {
    assertThat(types.matches(getClass().getClassLoader(), chain, "java/lang/Object", entry)).isTrue();
    assertThat(log.messages()).isEmpty();
  }

  @Test
  void aLoaderThatCannotSeeTheBridgeIsLeftAloneAndTheLogSaysHowToFixItOnce() {
    assertThat(types.matches(module, chain, "java/lang/Object", entry)).isFalse();
    assertThat(types.matches(module, chain, "java/lang/Object", entry)).isFalse();

    assertThat(log.messages())
        .singleElement()
        .asString()
        .contains(Chain.class.getName() + " is not limited")
        .contains("add dev.sluice.agent.bootstrap to -Djboss.modules.system.pkgs")
        .contains("org.osgi.framework.bootdelegation");
  }

  @Test
  void anEntryUpTheHierarchyIsFoundInTheClassFilesOfItsSuperTypes() {
    ClassLoader loader = getClass().getClassLoader();
    String base = Base.class.getName().replace('.', '/');

    assertThat(types.matches(loader, "a/Chain", base, new String[0])).isTrue();
    assertThat(types.matches(loader, "a/Plain", "java/lang/Object", new String[] {"a/Missing"}))
        .as("a super type without a class file")
        .isFalse();
    assertThat(types.matches(loader, "a/Plain", "java/lang/Thread", new String[0])).isFalse();
  }

  @Test
  void aLoaderThatCannotSeeTheNamespaceIsNoMatch() {
    ClassLoader jdkOnly = new ClassLoader(null) {};

    assertThat(types.matches(jdkOnly, chain, "java/lang/Object", entry)).isFalse();
    assertThat(log.messages()).isEmpty();
  }

  /** A base a container's chains extend. */
  abstract static class Base implements FilterChain {}

  /** A container's filter chain. */
  static final class Chain implements FilterChain {
    @Override
    public void doFilter(ServletRequest request, ServletResponse response) {}
  }
}
