package dev.sluice.servlet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.metrics.Metrics;
import jakarta.servlet.FilterConfig;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletException;
import java.lang.management.ManagementFactory;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RateLimitFilterTest {
  @TempDir Path dir;

  private Path invalidConfig() throws Exception {
    return Files.writeString(
        dir.resolve("ratelimit.yaml"),
        "rules:\n  - { id: a, match: { path: /a }, key: ip, limit: 0, window: 1m }\n");
  }

  /** A FilterConfig with {@code params}, of the context /shop whose class loader is this test's. */
  private static FilterConfig config(Map<String, String> params) {
    ClassLoader loader = RateLimitFilterTest.class.getClassLoader();
    Map<Object, Object> attributes = new HashMap<>();
    ServletContext context =
        (ServletContext)
            Proxy.newProxyInstance(
                loader,
                new Class<?>[] {ServletContext.class},
                (proxy, method, args) -> {
                  if (method.getName().equals("getClassLoader")) {
                    return loader;
                  }
                  if (method.getName().equals("getContextPath")) {
                    return "/shop";
                  }
                  if (method.getName().endsWith("Attribute")) {
                    return switch (method.getName()) {
                      case "setAttribute" -> attributes.put(args[0], args[1]);
                      case "removeAttribute" -> attributes.remove(args[0]);
                      default -> attributes.get(args[0]);
                    };
                  }
                  throw new UnsupportedOperationException(method.getName());
                });
    return (FilterConfig)
        Proxy.newProxyInstance(
            loader,
            new Class<?>[] {FilterConfig.class},
            (proxy, method, args) ->
                switch (method.getName()) {
                  case "getServletContext" -> context;
                  case "getInitParameter" -> params.get((String) args[0]);
                  default -> throw new UnsupportedOperationException(method.getName());
                });
  }

  @Test
  void underRefuseStartAnInvalidFileFailsInitWithItsErrors() throws Exception {
    Path file = invalidConfig();
    RateLimitFilter filter = new RateLimitFilter();
    assertThatThrownBy(
            () ->
                filter.init(
                    config(Map.of("config", file.toString(), "on_invalid_config", "refuse_start"))))
        .isInstanceOf(ServletException.class)
        .hasMessageStartingWith("Sluice rejected " + file + "; refusing to start")
        .hasMessageContaining(file + ":2:51: rules[0] (a).limit: must be a whole number");
  }

  @Test
  void anUnknownDecideValueFailsInit() {
    assertThatThrownBy(() -> new RateLimitFilter().init(config(Map.of("decide", "afterlogin"))))
        .isInstanceOf(ServletException.class)
        .hasMessage("Sluice: init-param decide=afterlogin is unknown: use after_login");
  }

  @Test
  void byDefaultAnInvalidFileStartsTheFilter() throws Exception {
    FilterConfig config = config(Map.of("config", invalidConfig().toString()));
    RateLimitFilter filter = new RateLimitFilter();
    try {
      assertThatCode(() -> filter.init(config)).doesNotThrowAnyException();
    } finally {
      filter.destroy();
    }
  }

  /**
   * A listener asks before the Filter starts, another after: each gets the limiter's metrics once,
   * and one that fails stops neither the Filter nor the next.
   */
  @Test
  void withMetricsHandsTheMetricsOverBeforeAndAfterTheFilterStarts() throws Exception {
    Path file =
        Files.writeString(
            dir.resolve("ratelimit.yaml"),
            "rules:\n  - { id: a, match: { path: /a }, key: ip, limit: 1, window: 1m }\n");
    FilterConfig config = config(Map.of("config", file.toString()));
    ServletContext context = config.getServletContext();
    List<Metrics> handed = new ArrayList<>();
    RateLimitFilter.withMetrics(
        context,
        m -> {
          throw new IllegalStateException("the app's binder is broken");
        });
    RateLimitFilter.withMetrics(context, handed::add);
    assertThat(handed).as("before the Filter started").isEmpty();
    RateLimitFilter filter = new RateLimitFilter();
    filter.init(config);
    try {
      RateLimitFilter.withMetrics(context, handed::add);
      assertThat(handed).hasSize(2);
      assertThat(handed.get(0)).isSameAs(handed.get(1));
      assertThat(handed.get(0).rule("a")).as("the Filter's rules").isNotNull();
    } finally {
      filter.destroy();
    }
    RateLimitFilter.withMetrics(context, handed::add);
    assertThat(handed).as("after destroy: until a Filter starts again").hasSize(2);
  }

  @Test
  void theMetricsShowInJmxUnderTheContextPathUntilDestroyed() throws Exception {
    Path file =
        Files.writeString(
            dir.resolve("ratelimit.yaml"),
            "rules:\n  - { id: a, match: { path: /a }, key: ip, limit: 1, window: 1m }\n");
    MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    ObjectName rule = new ObjectName("dev.sluice:type=Rule,context=shop,name=a");
    RateLimitFilter filter = new RateLimitFilter();
    filter.init(config(Map.of("config", file.toString())));
    try {
      assertThat(server.getAttribute(rule, "Denied")).isEqualTo(0L);
    } finally {
      filter.destroy();
    }
    assertThat(server.isRegistered(rule)).isFalse();
  }

  @Test
  void theRootContextIsNamedRoot() {
    assertThat(RateLimitFilter.contextName("")).isEqualTo("ROOT");
    assertThat(RateLimitFilter.contextName("/shop")).isEqualTo("shop");
  }
}
