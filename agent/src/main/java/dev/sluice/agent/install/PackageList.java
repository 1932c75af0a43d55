package dev.sluice.agent.install;

/**
 * A system property that lists packages, comma-separated, for a module system to take from the boot
 * class path: JBoss Modules' {@code jboss.modules.system.pkgs}, OSGi's {@code
 * org.osgi.framework.bootdelegation}.
 */
final class PackageList {
  private PackageList() {}

  /**
   * True if {@code list} (null: unset) covers the package {@code name}: an entry naming it, {@code
   * *}, a {@code prefix.*}, or (when {@code entriesCoverSubpackages}, as in JBoss Modules, where an
   * entry is a prefix) a parent package.
   */
  static boolean covers(String list, String name, boolean entriesCoverSubpackages) {
    if (list == null) {
      return false;
    }
    for (String entry : list.split(",")) {
      String trimmed = entry.trim();
      if (trimmed.equals(name)
          || trimmed.equals("*")
          || (trimmed.endsWith(".*") && name.startsWith(trimmed.substring(0, trimmed.length() - 1)))
          || (entriesCoverSubpackages && !trimmed.isEmpty() && name.startsWith(trimmed + "."))) {
        return true;
      }
    }
    return false;
  }

  /** {@code list} with {@code name} added at its end; {@code name} alone if the list is empty. */
  static String with(String list, String name) {
    return list == null || list.trim().isEmpty() ? name : list + "," + name;
  }
}
