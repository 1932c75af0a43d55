package dev.sluice.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The Filter scenarios on embedded Jetty 12 ee8 (javax.servlet 4), with the javax artifacts. */
class Jetty12Ee8JavaxFilterIT extends FilterScenarios {
  private final Jetty12Ee8Javax jetty = new Jetty12Ee8Javax();

  @Override
  Container container() {
    return jetty;
  }

  /**
   * The jakarta filter and app are on the test class path under the same class names; this proves
   * the scenarios above ran the javax twins from WEB-INF/lib instead.
   */
  @Test
  void theJavaxArtifactsServe() throws Exception {
    assertThat(http.get("/api/hello", "10.0.6.1").statusCode()).isEqualTo(200);
    Object filter = jetty.filter("sluice");
    assertThat(filter).isInstanceOf(javax.servlet.Filter.class);
    assertThat(filter.getClass().getName()).isEqualTo("dev.sluice.servlet.RateLimitFilter");
    assertThat(filter.getClass()).isNotSameAs(dev.sluice.servlet.RateLimitFilter.class);
    assertThat(jetty.loadedFrom(filter))
        .endsWith(Path.of("WEB-INF", "lib", Jetty12Ee8Javax.FILTER_JAR));
    Class<?> engine =
        Class.forName("dev.sluice.config.LiveLimiter", false, filter.getClass().getClassLoader());
    assertThat(Path.of(engine.getProtectionDomain().getCodeSource().getLocation().toURI()))
        .as("the engine the javax Filter runs on")
        .endsWith(Path.of("WEB-INF", "lib", "sluice-core.jar"));
    Object hello = jetty.servlet("hello");
    assertThat(hello).isInstanceOf(javax.servlet.Servlet.class);
    assertThat(jetty.loadedFrom(hello))
        .endsWith(Path.of("WEB-INF", "lib", Jetty12Ee8Javax.APP_JAR));
  }
}
