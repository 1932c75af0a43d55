package dev.sluice.agent.install;

import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * Matches class loaders that can see a class, by its class file as a resource: a loader that cannot
 * see the servlet API loads nothing worth a hierarchy lookup. Remembered per loader, weakly, so an
 * undeployed web app's loader is not held.
 */
final class SeesClass {
  private final String resource;
  private final Map<ClassLoader, Boolean> seen =
      Collections.synchronizedMap(new WeakHashMap<ClassLoader, Boolean>());

  SeesClass(String className) {
    this.resource = className.replace('.', '/') + ".class";
  }

  boolean matches(ClassLoader loader) {
    if (loader == null) {
      return false; // the boot loader holds no servlet API
    }
    Boolean sees = seen.get(loader);
    if (sees == null) {
      sees = loader.getResource(resource) != null;
      seen.put(loader, sees);
    }
    return sees;
  }
}
