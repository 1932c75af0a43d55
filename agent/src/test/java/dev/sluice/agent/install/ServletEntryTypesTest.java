package dev.sluice.agent.install;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.LogCapture;
import java.net.URL;
import javax.servlet.FilterChain;
import javax.servlet.ServletRequest;
import javax.servlet.ServletResponse;
import net.bytebuddy.description.type.TypeDescription;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class ServletEntryTypesTest {
  private final LogCapture log = LogCapture.of(AgentLog.NAME);
  private final ServletEntryTypes types = new ServletEntryTypes("javax.servlet", new BridgeCheck());
  private final TypeDescription chain = TypeDescription.ForLoadedType.of(Chain.class);

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
    assertThat(types.matches(chain, getClass().getClassLoader(), null, null, null)).isTrue();
    assertThat(log.messages()).isEmpty();
  }

  @Test
  void aLoaderThatCannotSeeTheBridgeIsLeftAloneAndTheLogSaysHowToFixItOnce() {
    assertThat(types.matches(chain, module, null, null, null)).isFalse();
    assertThat(types.matches(chain, module, null, null, null)).isFalse();

    assertThat(log.messages())
        .singleElement()
        .asString()
        .contains(Chain.class.getName() + " is not limited")
        .contains("add dev.sluice.agent.bootstrap to -Djboss.modules.system.pkgs")
        .contains("org.osgi.framework.bootdelegation");
  }

  /** A container's filter chain. */
  static final class Chain implements FilterChain {
    @Override
    public void doFilter(ServletRequest request, ServletResponse response) {}
  }
}
