package dev.sluice.it.agent.dist;

import dev.sluice.it.agent.AgentContainer;
import dev.sluice.it.agent.AgentServer;
import dev.sluice.it.agent.AgentWebApp;
import dev.sluice.it.agent.boot.BootJar;
import dev.sluice.it.jvm.ChildJvm;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Every server the agent is tested on (issue 18), started the way its integration test starts it,
 * through the same classes, with any JVM options: for tools outside the tests, such as the
 * start-up cost in bench/ (dev.sluice.bench.agent.StartupCost), which starts each with and without
 * the agent. Reads the distributions and jars from the system properties the tests read ({@link
 * dev.sluice.it.agent.Settings}). A server with a test app serves it as /app (the embedded Jetty
 * 12 and the Boot jars: at the root), under which {@link #limitedPath} answers {@code hello}.
 */
public enum SupportedServer {
  TOMCAT_8_5(Kind.TOMCAT, "sluice.it.tomcat85Distribution"),
  TOMCAT_9(Kind.TOMCAT, "sluice.it.tomcat9Distribution"),
  TOMCAT_10_1(Kind.TOMCAT, "sluice.it.tomcat10Distribution"),
  TOMCAT_11(Kind.TOMCAT, "sluice.it.tomcat11Distribution"),
  JETTY_9_4(Kind.JETTY, "sluice.it.jetty94Distribution"),
  JETTY_10(Kind.JETTY, "sluice.it.jetty10Distribution"),
  JETTY_11(Kind.JETTY, "sluice.it.jetty11Distribution"),
  JETTY_12(Kind.JETTY_12, null),
  WILDFLY_26(Kind.WILDFLY, "sluice.it.wildfly26Distribution"),
  WILDFLY_39(Kind.WILDFLY, "sluice.it.wildfly39Distribution"),
  OPEN_LIBERTY(Kind.LIBERTY, "sluice.it.libertyDistribution"),
  PAYARA_6(Kind.PAYARA, "sluice.it.payaraDistribution"),
  BOOT_2_7(Kind.BOOT, "sluice.it.boot27Jar"),
  BOOT_3_UNDERTOW(Kind.BOOT, "sluice.it.boot3UndertowJar");

  /** How a family of servers is set up and started; each follows its integration test. */
  private enum Kind {
    TOMCAT,
    JETTY,
    JETTY_12,
    WILDFLY,
    LIBERTY,
    PAYARA,
    BOOT
  }

  private static final Duration STOP = Duration.ofSeconds(90);

  private final Kind kind;
  private final String property;

  SupportedServer(Kind kind, String property) {
    this.kind = kind;
    this.property = property;
  }

  /** The name a command line gives it: {@code tomcat-11}, {@code wildfly-39}, {@code boot-2-7}. */
  public String argument() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /**
   * The system property naming its distribution or jar (Jetty 12 has none: it runs embedded, from
   * the class path, as its tests do).
   */
  public String property() {
    return property;
  }

  /** True for a javax.servlet server. */
  public boolean javax() {
    return switch (this) {
      case TOMCAT_8_5, TOMCAT_9, JETTY_9_4, JETTY_10, WILDFLY_26, OPEN_LIBERTY, BOOT_2_7 -> true;
      default -> false;
    };
  }

  /** A path a rule can limit, which answers 200 with no rule in force. */
  public String limitedPath() {
    return switch (kind) {
      case TOMCAT -> DistributionScenario.HELLO;
      case JETTY_12, BOOT -> "/api/hello";
      default -> DistributionChecks.APP_HELLO;
    };
  }

  /** A JSP of the examples app (Tomcat only: Jasper compiles it at its first request), or null. */
  public String jsp() {
    return kind == Kind.TOMCAT ? "/examples/jsp/jsp2/el/basic-arithmetic.jsp" : null;
  }

  /**
   * The server's own line saying how long it took to start, its milliseconds in group 1, or null
   * where it has none in milliseconds.
   */
  public Pattern startedIn() {
    return switch (kind) {
      case TOMCAT -> Pattern.compile("Server startup in \\[?([0-9,.]+)\\]? m");
      case WILDFLY -> Pattern.compile("WFLYSRV0025: .* started in ([0-9]+)ms");
      default -> null;
    };
  }

  /**
   * Sets the server up in directories of its own, deploys the test app (Tomcat: its examples app
   * serves) and starts it with {@code jvmOptions} where an operator puts them: CATALINA_OPTS, the
   * java command line, standalone.conf's JAVA_OPTS (after its defaults), Liberty's jvm.options,
   * Payara's domain.xml. Returns once it is started, not necessarily serving: the embedded Jetty
   * and the Boot jars once they print their port, the others at once.
   */
  public RunningServer start(List<String> jvmOptions) throws Exception {
    String name = argument();
    AgentWebApp app =
        kind == Kind.TOMCAT || kind == Kind.BOOT
            ? null
            : AgentWebApp.create(javax(), DistributionChecks.APP_RULES, "");
    try {
      return switch (kind) {
        case TOMCAT -> {
          TomcatDistribution tomcat = TomcatDistribution.copy(property);
          ChildJvm jvm = tomcat.start(name, String.join(" ", jvmOptions));
          yield new RunningServer(
              jvm, tomcat.port(), () -> Processes.stopGracefully(jvm, STOP),
              tomcat::delete);
        }
        case JETTY -> {
          JettyDistribution jetty = JettyDistribution.of(property, addModules());
          jetty.deploy("app", app.dir());
          ChildJvm jvm = jetty.start(name, jvmOptions);
          yield new RunningServer(
              jvm, jetty.port(), () -> Processes.stopGracefully(jvm, STOP),
              () -> deleteBoth(jetty::delete, app));
        }
        case JETTY_12 -> {
          AgentServer jetty =
              AgentServer.startWithOptions(AgentContainer.JETTY_12_EE10, app, jvmOptions);
          ChildJvm jvm = jetty.jvm();
          yield new RunningServer(
              jvm, jetty.port(), () -> Processes.stopGracefully(jvm, STOP),
              app::delete);
        }
        case WILDFLY -> {
          WildFlyDistribution wildFly = WildFlyDistribution.of(property);
          wildFly.deploy("app", app.dir());
          ChildJvm script = wildFly.start(name, String.join(" ", jvmOptions), true);
          yield new RunningServer(
              script, wildFly.port(),
              () -> Processes.stopScriptAndServer(script, "WildFly", STOP),
              () -> deleteBoth(wildFly::delete, app));
        }
        case LIBERTY -> {
          LibertyDistribution liberty = LibertyDistribution.of(property);
          liberty.deploy("app", app.dir());
          ChildJvm jvm = liberty.start(name, jvmOptions);
          yield new RunningServer(
              jvm, liberty.port(), () -> Processes.stopGracefully(jvm, STOP),
              () -> deleteBoth(liberty::delete, app));
        }
        case PAYARA -> {
          PayaraDistribution payara = PayaraDistribution.of(property);
          payara.deploy("app", app.dir());
          ChildJvm script = payara.start(name, jvmOptions);
          yield new RunningServer(
              script, payara.port(), () -> payara.stop(script, STOP),
              () -> deleteBoth(payara::delete, app));
        }
        case BOOT -> {
          BootJar boot = BootJar.start(property, jvmOptions, List.of());
          ChildJvm jvm = boot.jvm();
          yield new RunningServer(
              jvm, boot.port(), () -> Processes.stopGracefully(jvm, STOP), () -> {});
        }
      };
    } catch (Exception | Error e) {
      if (app != null) {
        app.delete();
      }
      throw e;
    }
  }

  /** The start.jar option enabling the http and deploy modules, as {@link JettyScenario}'s. */
  private String addModules() {
    return this == JETTY_9_4 ? "--add-to-start=http,deploy" : "--add-module=http,deploy";
  }

  private static void deleteBoth(RunningServer.Step server, AgentWebApp app) throws Exception {
    try {
      server.run();
    } finally {
      app.delete();
    }
  }

  /** The server named {@code argument} ({@link #argument}). */
  public static SupportedServer of(String argument) {
    for (SupportedServer server : values()) {
      if (server.argument().equals(argument)) {
        return server;
      }
    }
    throw new IllegalArgumentException("no server " + argument + "; there are " + List.of(values()));
  }

  /** The unpacked distribution or the jar, for the record; null for the embedded Jetty 12. */
  public Path file() {
    return property == null ? null : Path.of(System.getProperty(property, ""));
  }
}
