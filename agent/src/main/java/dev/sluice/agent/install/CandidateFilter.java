package dev.sluice.agent.install;

import java.lang.instrument.IllegalClassFormatException;
import java.nio.charset.StandardCharsets;
import java.security.ProtectionDomain;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.agent.builder.ResettableClassFileTransformer;

/**
 * Keeps Byte Buddy away from classes that cannot be an entry into the servlet layer, before it
 * parses them. A class that declares {@code doFilter} or {@code service} taking a servlet request
 * and response holds that method's descriptor, {@code (L..ServletRequest;L..ServletResponse;)V},
 * in its constant pool; a scan of the raw bytes for its tail finds it in microseconds, while
 * Byte Buddy would first build a description of every class a container loads (a JSP compile loads
 * thousands). Classes that merely call such a method pass too, and Byte Buddy's own matchers
 * decide.
 */
final class CandidateFilter extends ResettableClassFileTransformer.WithDelegation {
  private static final byte[] DESCRIPTOR_TAIL =
      "/ServletResponse;)V".getBytes(StandardCharsets.US_ASCII);

  private CandidateFilter(ResettableClassFileTransformer transformer) {
    super(transformer);
  }

  static AgentBuilder.TransformerDecorator decorator() {
    return new AgentBuilder.TransformerDecorator() {
      @Override
      public ResettableClassFileTransformer decorate(ResettableClassFileTransformer transformer) {
        return new CandidateFilter(transformer);
      }
    };
  }

  @Override
  public byte[] transform(
      ClassLoader loader,
      String name,
      Class<?> classBeingRedefined,
      ProtectionDomain protectionDomain,
      byte[] classFile)
      throws IllegalClassFormatException {
    if (loader == null || !isCandidate(classFile)) {
      return null;
    }
    return classFileTransformer.transform(
        loader, name, classBeingRedefined, protectionDomain, classFile);
  }

  /** True if {@code classFile} names the descriptor of an entry method anywhere. */
  static boolean isCandidate(byte[] classFile) {
    return contains(classFile, DESCRIPTOR_TAIL);
  }

  private static boolean contains(byte[] bytes, byte[] part) {
    byte first = part[0];
    int last = bytes.length - part.length;
    for (int i = 0; i <= last; i++) {
      if (bytes[i] == first && matchesAt(bytes, i, part)) {
        return true;
      }
    }
    return false;
  }

  private static boolean matchesAt(byte[] bytes, int at, byte[] part) {
    for (int j = 1; j < part.length; j++) {
      if (bytes[at + j] != part[j]) {
        return false;
      }
    }
    return true;
  }
}
