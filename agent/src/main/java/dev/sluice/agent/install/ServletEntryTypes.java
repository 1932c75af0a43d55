package dev.sluice.agent.install;

import java.security.ProtectionDomain;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.WeakHashMap;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.description.type.TypeDefinition;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.utility.JavaModule;

/**
 * Matches classes that implement {@code FilterChain} or {@code Servlet} of one namespace, anywhere
 * up their hierarchy, in class loaders that can see that namespace at all and the agent's bridge
 * too ({@link BridgeCheck}). Byte Buddy's {@code hasSuperType} walks and parses the whole
 * hierarchy of every class a container loads, again for each class (a Tomcat loads thousands that
 * share the same few bases); this remembers each type name's answer per class loader, so every
 * class file is read at most once per loader. The answers are names and booleans only: nothing
 * here holds a class loader or its classes, and the map forgets a loader once it is collected.
 */
final class ServletEntryTypes implements AgentBuilder.RawMatcher {
  private final String filterChain;
  private final String servlet;
  private final SeesClass seesNamespace;
  private final BridgeCheck bridge;
  private final Map<ClassLoader, Map<String, Boolean>> answers =
      new WeakHashMap<ClassLoader, Map<String, Boolean>>();

  ServletEntryTypes(String namespace, BridgeCheck bridge) {
    this.filterChain = namespace + ".FilterChain";
    this.servlet = namespace + ".Servlet";
    this.seesNamespace = new SeesClass(servlet);
    this.bridge = bridge;
  }

  @Override
  public boolean matches(
      TypeDescription type,
      ClassLoader loader,
      JavaModule module,
      Class<?> classBeingRedefined,
      ProtectionDomain protectionDomain) {
    return seesNamespace.matches(loader)
        && !type.isInterface()
        && implementsEntry(type, answersOf(loader))
        && bridge.reachableFrom(loader, type.getName());
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

  private boolean implementsEntry(TypeDefinition type, Map<String, Boolean> known) {
    String name = type.getTypeName();
    if (name.equals(filterChain) || name.equals(servlet)) {
      return true;
    }
    Boolean answer = known.get(name);
    if (answer != null) {
      return answer;
    }
    boolean result;
    try {
      result = superTypesImplementEntry(type, known);
    } catch (RuntimeException unreadable) {
      // A super type with no class file to read: another agent's helper injected straight into
      // the class loader, or a class generated at run time. Neither is a container's entry.
      result = false;
    }
    known.put(name, result);
    return result;
  }

  private boolean superTypesImplementEntry(TypeDefinition type, Map<String, Boolean> known) {
    TypeDefinition superClass = type.getSuperClass();
    if (superClass != null
        && !"java.lang.Object".equals(superClass.getTypeName())
        && implementsEntry(superClass.asErasure(), known)) {
      return true;
    }
    for (TypeDefinition face : type.getInterfaces().asErasures()) {
      if (implementsEntry(face, known)) {
        return true;
      }
    }
    return false;
  }
}
