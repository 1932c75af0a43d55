package dev.sluice.agent.install;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OsgiBootDelegationTest {
  private static final String BRIDGE = "dev.sluice.agent.bootstrap";
  private static final String PROPERTY = "org.osgi.framework.bootdelegation";

  /** As Payara 6 ships it, shortened: a variable, continued lines, spaces after commas. */
  private static final String PAYARA_OSGI_PROPERTIES =
      "eclipselink.bootdelegation=oracle.sql, oracle.sql.*\n"
          + "org.osgi.framework.bootdelegation=${eclipselink.bootdelegation}, \\\n"
          + "                                  com.sun.btrace, com.sun.btrace.*, \\\n"
          + "                                  jdk.internal.reflect,jdk.net\n"
          + "org.osgi.framework.bundle.parent=app\n";

  @TempDir Path dir;
  private final Properties system = new Properties();

  @Test
  void anotherServerIsLeftAlone() throws IOException {
    assertThat(OsgiBootDelegation.exposeBridge(true, system, loaderSeeing())).isNull();
    assertThat(system).isEmpty();
  }

  @Test
  void libertyGetsTheBridgeAloneForItAppendsThePropertyToItsOwnList() throws IOException {
    assertThat(OsgiBootDelegation.exposeBridge(true, system, liberty())).isNull();
    assertThat(system.getProperty(PROPERTY)).isEqualTo(BRIDGE);
  }

  @Test
  void aListSetAlreadyGetsTheBridgeAdded() throws IOException {
    system.setProperty(PROPERTY, "com.acme.*");
    assertThat(OsgiBootDelegation.exposeBridge(true, system, liberty())).isNull();
    assertThat(system.getProperty(PROPERTY)).isEqualTo("com.acme.*," + BRIDGE);
  }

  @Test
  void aListThatCoversTheBridgeStaysAsItIs() throws IOException {
    system.setProperty(PROPERTY, "dev.sluice.*");
    assertThat(OsgiBootDelegation.exposeBridge(true, system, liberty())).isNull();
    assertThat(system.getProperty(PROPERTY)).isEqualTo("dev.sluice.*");
  }

  @Test
  void glassFishGetsTheDomainsListWithTheBridgeForThePropertyReplacesIt() throws IOException {
    Path install = dir.resolve("glassfish");
    Path domain = install.resolve("domains/domain1");
    write(install.resolve("config/osgi.properties"), PROPERTY + "=not.this.one\n");
    write(domain.resolve("config/osgi.properties"), PAYARA_OSGI_PROPERTIES);
    system.setProperty("com.sun.aas.installRoot", install.toString());
    system.setProperty("com.sun.aas.instanceRoot", domain.toString());

    assertThat(OsgiBootDelegation.exposeBridge(true, system, glassFish())).isNull();

    assertThat(system.getProperty(PROPERTY))
        .isEqualTo(
            "oracle.sql, oracle.sql.*, com.sun.btrace, com.sun.btrace.*, jdk.internal.reflect,"
                + "jdk.net,"
                + BRIDGE);
  }

  @Test
  void glassFishWithoutADomainListReadsTheInstallationsWithTheSystemsVariables()
      throws IOException {
    Path install = dir.resolve("glassfish");
    write(install.resolve("config/osgi.properties"), PROPERTY + "=${extra}, com.sun.btrace\n");
    system.setProperty("com.sun.aas.installRoot", install.toString());
    system.setProperty("com.sun.aas.instanceRoot", install.resolve("domains/domain1").toString());
    system.setProperty("extra", "com.acme");

    assertThat(OsgiBootDelegation.exposeBridge(true, system, glassFish())).isNull();

    assertThat(system.getProperty(PROPERTY)).isEqualTo("com.acme, com.sun.btrace," + BRIDGE);
  }

  @Test
  void glassFishWhoseListCannotBeReadIsLeftAloneWithTheFix() throws IOException {
    system.setProperty("com.sun.aas.installRoot", dir.resolve("nowhere").toString());

    String said = OsgiBootDelegation.exposeBridge(true, system, glassFish());

    assertThat(said)
        .startsWith("Sluice: could not read " + dir.resolve("nowhere/config/osgi.properties"))
        .endsWith("Add " + BRIDGE + " to " + PROPERTY + " in that file");
    assertThat(system.getProperty(PROPERTY)).isNull();
  }

  @Test
  void anAttachSaysTheServerReadItsListWithoutTheBridgeAndChangesNothing() throws IOException {
    String said = OsgiBootDelegation.exposeBridge(false, system, liberty());

    assertThat(said)
        .isEqualTo(
            "Sluice: Liberty read "
                + PROPERTY
                + " when this JVM started, without "
                + BRIDGE
                + ": requests to its servlet bundles are not limited. Start it with -javaagent,"
                + " or with -D"
                + PROPERTY
                + "="
                + BRIDGE);
    assertThat(system).isEmpty();
  }

  private ClassLoader liberty() throws IOException {
    return loaderSeeing(OsgiBootDelegation.LIBERTY);
  }

  private ClassLoader glassFish() throws IOException {
    return loaderSeeing(OsgiBootDelegation.GLASSFISH);
  }

  /** A class loader that sees {@code resources} (empty files) and nothing else, not even the JDK. */
  private ClassLoader loaderSeeing(String... resources) throws IOException {
    Path classes = Files.createDirectories(dir.resolve("classes"));
    for (String resource : resources) {
      write(classes.resolve(resource), "");
    }
    return new URLClassLoader(new URL[] {classes.toUri().toURL()}, null);
  }

  private static void write(Path file, String text) throws IOException {
    Files.createDirectories(file.getParent());
    Files.writeString(file, text);
  }
}
