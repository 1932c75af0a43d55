package dev.sluice.agent.install;

import java.nio.charset.StandardCharsets;

/**
 * Keeps the agent away from classes that cannot be an entry into the servlet layer, before it
 * parses them. A class that declares {@code doFilter} or {@code service} taking a servlet request
 * and response holds that method's descriptor, {@code (L..ServletRequest;L..ServletResponse;)V},
 * in its constant pool; a scan of the raw bytes for its tail finds it in microseconds, while
 * parsing would first read every class a container loads (a JSP compile loads thousands). Classes
 * that merely call such a method pass too, and {@link ServletEntryTypes} decides.
 */
final class CandidateFilter {
  private static final byte[] DESCRIPTOR_TAIL =
      "/ServletResponse;)V".getBytes(StandardCharsets.US_ASCII);

  private CandidateFilter() {}

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
