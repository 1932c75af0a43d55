package dev.sluice.agent.install;

import java.io.IOException;
import java.io.InputStream;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.WeakHashMap;
import org.objectweb.asm.ClassReader;

/**
 * Matches classes that implement {@code FilterChain} or {@code Servlet} of one namespace, anywhere
 * up their hierarchy, in class loaders that can see that namespace at all and the agent's bridge
 * too ({@link BridgeCheck}). The super types are read from their class files, as the loader finds
 * them (nothing is loaded); a Tomcat loads thousands of classes that share the same few bases, so
 * each type name's answer is remembered per class loader, and every class file is read at most
 * once per loader. The answers are names and booleans only: nothing here holds a class loader or
 * its classes, and the map forgets a loader once it is collected.
 */
final class ServletEntryTypes {
  private final String namespace;
  private final String filterChain;
  private final String servlet;
  private final SeesClass seesNamespace;
  private final BridgeCheck bridge;
  private final Map<ClassLoader, Map<String, Boolean>> answers =
      new WeakHashMap<ClassLoader, Map<String, Boolean>>();

  /** For {@code namespace} in internal form: "javax/servlet". */
  ServletEntryTypes(String namespace, BridgeCheck bridge) {
    this.namespace = namespace;
    this.filterChain = namespace + "/FilterChain";
    this.servlet = namespace + "/Servlet";
    this.seesNamespace = new SeesClass(servlet);
    this.bridge = bridge;
  }

  String namespace() {
    return namespace;
  }

  /**
   * True if the class {@code name} (internal form) of {@code loader}, a class and no interface,
   * with these super types, implements an entry of this namespace and may be advised.
   */
  boolean matches(ClassLoader loader, String name, String superName, String[] interfaces) {
    if (!seesNamespace.matches(loader)) {
      return false;
    }
    Map<String, Boolean> known = answersOf(loader);
    boolean entry = superTypesImplementEntry(loader, superName, interfaces, known);
    known.put(name, entry);
    return entry && bridge.reachableFrom(loader, name.replace('/', '.'));
  }

  private Map<String, Boolean> answersOf(ClassLoader loader) {
    synchronized (answers) {
      Map<String, Boolean> known = answers.get(loader);
      if (known == null) {
        known = Collections.synchronizedMap(new HashMap<String, Boolean>());
        answers.put(loader, known);
      }
      return known;
    }
  }

  private boolean implementsEntry(ClassLoader loader, String name, Map<String, Boolean> known) {
    if (name.equals(filterChain) || name.equals(servlet)) {
      return true;
    }
    if (name.startsWith("java/")) {
      return false; // the JDK's types implement no servlet API
    }
    Boolean answer = known.get(name);
    if (answer != null) {
      return answer;
    }
    ClassReader type = classFile(loader, name);
    // No class file to read: another agent's helper injected straight into the class loader, or
    // a class generated at run time. Neither is a container's entry.
    boolean result =
        type != null
            && superTypesImplementEntry(loader, type.getSuperName(), type.getInterfaces(), known);
    known.put(name, result);
    return result;
  }

  private boolean superTypesImplementEntry(
      ClassLoader loader, String superName, String[] interfaces, Map<String, Boolean> known) {
    if (superName != null && implementsEntry(loader, superName, known)) {
      return true;
    }
    for (String face : interfaces) {
      if (implementsEntry(loader, face, known)) {
        return true;
      }
    }
    return false;
  }

  private static ClassReader classFile(ClassLoader loader, String name) {
    InputStream in = loader.getResourceAsStream(name + ".class");
    if (in == null) {
      return null;
    }
    try {
      try {
        return new ClassReader(in);
      } finally {
        in.close();
      }
    } catch (IOException | RuntimeException unreadable) {
      return null;
    }
  }
}
