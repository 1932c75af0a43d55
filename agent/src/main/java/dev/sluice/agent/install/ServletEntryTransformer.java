package dev.sluice.agent.install;

import java.lang.instrument.ClassFileTransformer;
import java.security.ProtectionDomain;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.Opcodes;

/**
 * Puts the advice into the container's entry into the servlet layer, in both namespaces. The
 * container calls its filter chain ({@code FilterChain.doFilter}) before any application filter,
 * or the servlet ({@code Servlet.service}) directly when no filter is mapped; advising both, and
 * asking the gate only at the outermost call, checks every request before application code runs.
 *
 * <p>Matching is by name only (the agent cannot see servlet classes), and cheap first: classes of
 * the boot loader, of the agent, and whose bytes do not hold an entry method's descriptor ({@link
 * CandidateFilter}) are passed before anything is parsed; then class loaders that cannot see the
 * servlet API, before any hierarchy is read ({@link ServletEntryTypes}).
 */
final class ServletEntryTransformer implements ClassFileTransformer {
  private static final String[] IGNORED = {
    "java/", "jdk/", "sun/", "com/sun/", "dev/sluice/agent/", "dev/sluice/internal/"
  };
  private static final ClassLoader OWN_LOADER = ServletEntryTransformer.class.getClassLoader();

  private final ServletEntryTypes[] namespaces;
  private final AtomicInteger retransformed = new AtomicInteger();

  ServletEntryTransformer() {
    BridgeCheck bridge = new BridgeCheck();
    namespaces =
        new ServletEntryTypes[] {
          new ServletEntryTypes("javax/servlet", bridge),
          new ServletEntryTypes("jakarta/servlet", bridge)
        };
  }

  @Override
  public byte[] transform(
      ClassLoader loader,
      String name,
      Class<?> classBeingRedefined,
      ProtectionDomain protectionDomain,
      byte[] classFile) {
    if (loader == null
        || loader == OWN_LOADER
        || name == null
        || ignored(name)
        || !CandidateFilter.isCandidate(classFile)) {
      return null;
    }
    try {
      byte[] advised = advised(loader, new ClassReader(classFile));
      if (advised != null && classBeingRedefined != null) {
        retransformed.incrementAndGet();
      }
      return advised;
    } catch (Throwable t) {
      AgentLog.warning(couldNotInstrument(name.replace('/', '.'), t));
      return null;
    }
  }

  /**
   * True if {@code loaded}, a class already loaded (a runtime attach), is an entry this
   * transformer would advise, were it loaded now.
   */
  boolean isEntry(Class<?> loaded) {
    ClassLoader loader = loaded.getClassLoader();
    if (loader == null
        || loader == OWN_LOADER
        || loaded.isInterface()
        || loaded.isArray()
        || loaded.isSynthetic()) {
      return false;
    }
    String name = loaded.getName().replace('.', '/');
    if (ignored(name)) {
      return false;
    }
    Class<?> superClass = loaded.getSuperclass();
    Class<?>[] faces = loaded.getInterfaces();
    String[] interfaces = new String[faces.length];
    for (int i = 0; i < faces.length; i++) {
      interfaces[i] = faces[i].getName().replace('.', '/');
    }
    String superName = superClass == null ? null : superClass.getName().replace('.', '/');
    for (ServletEntryTypes types : namespaces) {
      if (types.matches(loader, name, superName, interfaces)) {
        return true;
      }
    }
    return false;
  }

  /** How many classes being retransformed it advised. */
  int retransformed() {
    return retransformed.get();
  }

  static String couldNotInstrument(String type, Throwable error) {
    return "Sluice: could not instrument "
        + type
        + " ("
        + error
        + "); requests through it are not limited";
  }

  private byte[] advised(ClassLoader loader, ClassReader reader) {
    if ((reader.getAccess() & (Opcodes.ACC_INTERFACE | Opcodes.ACC_SYNTHETIC)) != 0) {
      return null;
    }
    List<String> descriptors = new ArrayList<String>(2);
    for (ServletEntryTypes types : namespaces) {
      if (types.matches(
          loader, reader.getClassName(), reader.getSuperName(), reader.getInterfaces())) {
        descriptors.add(ServletEntryAdvice.descriptorOf(types.namespace()));
      }
    }
    return descriptors.isEmpty() ? null : ServletEntryAdvice.apply(reader, descriptors);
  }

  private static boolean ignored(String name) {
    for (String prefix : IGNORED) {
      if (name.startsWith(prefix)) {
        return true;
      }
    }
    return false;
  }
}
