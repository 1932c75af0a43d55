package dev.sluice.agent.install;

import java.io.File;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Java EE servers built on OSGi: a bundle's class loader asks the boot class path only for
 * {@code java.*} and the packages {@code org.osgi.framework.bootdelegation} names, so advice
 * inlined into the server's servlet bundles could not reach the agent's bridge. Where the server
 * reads that property after {@code premain}, and what it does with it, is known for two families,
 * and {@code premain} adds the bridge's package for them:
 *
 * <ul>
 *   <li>Open Liberty and WebSphere Liberty append the system property's packages to their own list
 *       (the kernel's {@code FrameworkConfigurator}).
 *   <li>GlassFish and Payara read the list from {@code config/osgi.properties} of the domain, else of
 *       the installation, and a system property of the same name replaces the file's value: the
 *       property is set to the file's list with the bridge's package.
 * </ul>
 *
 * A property set already gets the package added in either. Other OSGi frameworks are left alone:
 * setting the property where it is unset would replace the framework's own default. Their bundles'
 * classes are skipped then, and {@link BridgeCheck} says so.
 */
final class OsgiBootDelegation {
  static final String PROPERTY = "org.osgi.framework.bootdelegation";
  static final String LIBERTY = "com/ibm/ws/kernel/launch/internal/FrameworkConfigurator.class";
  static final String GLASSFISH = "com/sun/enterprise/glassfish/bootstrap/ASMain.class";
  static final String INSTALL_ROOT = "com.sun.aas.installRoot";
  static final String INSTANCE_ROOT = "com.sun.aas.instanceRoot";
  private static final String OSGI_PROPERTIES = "config/osgi.properties";
  private static final Pattern VARIABLE = Pattern.compile("\\$\\{([^}]+)}");

  private OsgiBootDelegation() {}

  /**
   * Makes the bridge visible to the bundles of a Liberty or GlassFish server if {@code loader} (the
   * system class loader) runs one, by changing {@code system} (the system properties); returns what
   * to log about it, or null if there is nothing to say.
   */
  static String exposeBridge(boolean premain, Properties system, ClassLoader loader) {
    boolean liberty = loader.getResource(LIBERTY) != null;
    boolean glassFish = !liberty && loader.getResource(GLASSFISH) != null;
    String set = system.getProperty(PROPERTY);
    if (!(liberty || glassFish) || PackageList.covers(set, BridgeCheck.PACKAGE, false)) {
      return null;
    }
    String server = liberty ? "Liberty" : "GlassFish/Payara";
    if (!premain) {
      return "Sluice: "
          + server
          + " read "
          + PROPERTY
          + " when this JVM started, without "
          + BridgeCheck.PACKAGE
          + ": requests to its servlet bundles are not limited. Start it with -javaagent"
          + (liberty ? ", or with -D" + PROPERTY + "=" + BridgeCheck.PACKAGE : "");
    }
    if (set != null || liberty) {
      system.setProperty(PROPERTY, PackageList.with(set, BridgeCheck.PACKAGE));
      return null;
    }
    File file = glassFishProperties(system);
    try {
      system.setProperty(PROPERTY, PackageList.with(listIn(file, system), BridgeCheck.PACKAGE));
      return null;
    } catch (IOException e) {
      return "Sluice: could not read "
          + file
          + " ("
          + e
          + "): requests to GlassFish/Payara's servlet bundles are not limited. Add "
          + BridgeCheck.PACKAGE
          + " to "
          + PROPERTY
          + " in that file";
    }
  }

  /** The osgi.properties GlassFish reads: the domain's if it has one, else the installation's. */
  static File glassFishProperties(Properties system) {
    String instance = system.getProperty(INSTANCE_ROOT);
    File domain = instance == null ? null : new File(instance, OSGI_PROPERTIES);
    if (domain != null && domain.isFile()) {
      return domain;
    }
    return new File(system.getProperty(INSTALL_ROOT, "."), OSGI_PROPERTIES);
  }

  /**
   * The boot delegation list {@code file} sets, as GlassFish reads it: each {@code ${name}} it uses
   * replaced by the file's value of that name, else by the system property; null if it sets none.
   */
  static String listIn(File file, Properties system) throws IOException {
    Properties properties = new Properties();
    InputStream in = new FileInputStream(file);
    try {
      properties.load(in);
    } finally {
      in.close();
    }
    String list = properties.getProperty(PROPERTY);
    for (int replaced = 0; list != null && replaced < 100; replaced++) {
      Matcher variable = VARIABLE.matcher(list);
      if (!variable.find()) {
        break;
      }
      String name = variable.group(1);
      String value = properties.getProperty(name, system.getProperty(name, ""));
      list = list.substring(0, variable.start()) + value + list.substring(variable.end());
    }
    return list;
  }
}
