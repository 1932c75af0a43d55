package dev.sluice.agent.install;

import java.util.Collection;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/**
 * Writes the advice into the container's entry into the servlet layer ({@code
 * FilterChain.doFilter} and {@code Servlet.service}, javax and jakarta alike): the bridge asked at
 * the top, a 429 skipping the body, the bridge told on every way out. It names only {@code
 * Object} and the boot-class-path bridge, so the same code is valid in any container and either
 * namespace; the method's name, a constant, tells the servlet's {@code service} from the chain's
 * {@code doFilter}. What the bridge throws is swallowed: the request proceeds (see {@link
 * ServletEntryMethod}).
 *
 * <p>Only the advised methods change, and no member is added, so loaded classes can be
 * retransformed; the other methods are copied as they are.
 */
final class ServletEntryAdvice extends ClassVisitor {
  private static final String[] ENTRY_NAMES = {"doFilter", "service"};

  private final Collection<String> descriptors;
  private String owner;
  private boolean frames;
  private boolean changed;

  private ServletEntryAdvice(ClassVisitor writer, Collection<String> descriptors) {
    super(Opcodes.ASM9, writer);
    this.descriptors = descriptors;
  }

  /**
   * The class {@code reader} holds with the advice in its entry methods, those taking the request
   * and response of {@code descriptors} (each {@code (L..ServletRequest;L..ServletResponse;)V});
   * null if it declares none.
   */
  static byte[] apply(ClassReader reader, Collection<String> descriptors) {
    ClassWriter writer = new ClassWriter(reader, 0);
    ServletEntryAdvice advice = new ServletEntryAdvice(writer, descriptors);
    // Expanded: the frames the advice adds are written whole, so the method's own must be too.
    reader.accept(advice, ClassReader.EXPAND_FRAMES);
    return advice.changed ? writer.toByteArray() : null;
  }

  /** The descriptor of the entry methods of {@code namespace} ("javax/servlet"). */
  static String descriptorOf(String namespace) {
    return "(L" + namespace + "/ServletRequest;L" + namespace + "/ServletResponse;)V";
  }

  @Override
  public void visit(
      int version,
      int access,
      String name,
      String signature,
      String superName,
      String[] interfaces) {
    owner = name;
    // Stack map frames exist from Java 6 class files on; older ones are verified without.
    frames = (version & 0xFFFF) >= Opcodes.V1_6;
    super.visit(version, access, name, signature, superName, interfaces);
  }

  @Override
  public MethodVisitor visitMethod(
      int access, String name, String descriptor, String signature, String[] exceptions) {
    MethodVisitor method = super.visitMethod(access, name, descriptor, signature, exceptions);
    if (!isEntry(access, name, descriptor)) {
      return method;
    }
    changed = true;
    return new ServletEntryMethod(method, name, entryLocals(access, descriptor), frames);
  }

  private boolean isEntry(int access, String name, String descriptor) {
    if ((access & Opcodes.ACC_PUBLIC) == 0
        || (access & (Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE)) != 0
        || !descriptors.contains(descriptor)) {
      return false;
    }
    for (String entry : ENTRY_NAMES) {
      if (entry.equals(name)) {
        return true;
      }
    }
    return false;
  }

  /** The locals on entry, as a stack map frame names them: this (unless static), then both. */
  private Object[] entryLocals(int access, String descriptor) {
    Type[] arguments = Type.getArgumentTypes(descriptor);
    boolean isStatic = (access & Opcodes.ACC_STATIC) != 0;
    Object[] locals = new Object[isStatic ? 2 : 3];
    int i = 0;
    if (!isStatic) {
      locals[i++] = owner;
    }
    locals[i++] = arguments[0].getInternalName();
    locals[i] = arguments[1].getInternalName();
    return locals;
  }
}
