package dev.sluice.core;

import java.util.Arrays;

/**
 * A path pattern of ratelimit.yaml: literal segments, {@code *} for exactly one segment and {@code
 * **} for any number of segments (none included, so {@code /api/**} matches {@code /api}). It is
 * matched against {@link RequestPath} segments, never against raw text.
 *
 * <p>Matching is case-sensitive, as servlet mapping is: {@code /login} does not match {@code
 * /LOGIN}, which a container serves as another resource (if at all). An application that serves
 * paths case-insensitively must list each spelling, or use {@code *}.
 */
public final class PathPattern {
  private static final String ONE = "*";
  private static final String ANY = "**";

  private final String text;
  private final String[] parts;

  private PathPattern(String text, String[] parts) {
    this.text = text;
    this.parts = parts;
  }

  /**
   * Compiles a pattern.
   *
   * @throws IllegalArgumentException with a message fit for the user if the pattern is malformed
   */
  public static PathPattern compile(String text) {
    if (text == null || !text.startsWith("/")) {
      throw new IllegalArgumentException("a path pattern must start with '/'");
    }
    for (String raw : text.split("/", -1)) {
      if (raw.contains("*") && !raw.equals(ONE) && !raw.equals(ANY)) {
        throw new IllegalArgumentException(
            "'*' and '**' must stand alone between slashes, as in /api/*/items or /api/**");
      }
      if (raw.equals(".") || raw.equals("..") || raw.contains(";")) {
        throw new IllegalArgumentException(
            "a path pattern may not contain '.', '..' or ';' segments");
      }
    }
    return new PathPattern(text, RequestPath.segments(text));
  }

  /**
   * Glob matching over segments with one backtrack point (the last {@code **} seen): linear in
   * practice and O(segments × parts) at worst, so a hostile path of thousands of segments cannot
   * make matching explode.
   */
  public boolean matches(String[] segments) {
    int s = 0;
    int p = 0;
    int starPart = -1;
    int starSegment = 0;
    while (s < segments.length) {
      if (p < parts.length && parts[p].equals(ANY)) {
        starPart = p++;
        starSegment = s;
      } else if (p < parts.length && (parts[p].equals(ONE) || parts[p].equals(segments[s]))) {
        s++;
        p++;
      } else if (starPart >= 0) {
        p = starPart + 1;
        s = ++starSegment;
      } else {
        return false;
      }
    }
    while (p < parts.length && parts[p].equals(ANY)) {
      p++;
    }
    return p == parts.length;
  }

  /**
   * Whether some path under {@code contextPath} (e.g. {@code /shop}; empty for the root) matches:
   * a rule none of whose patterns can is written without the application's context path. A
   * {@code **} met while walking the context path can take the rest of it.
   */
  public boolean canMatchUnder(String contextPath) {
    String[] context = RequestPath.segments(contextPath);
    int p = 0;
    for (String segment : context) {
      if (p == parts.length) {
        return false;
      }
      if (parts[p].equals(ANY)) {
        return true;
      }
      if (!parts[p].equals(ONE) && !parts[p].equals(segment)) {
        return false;
      }
      p++;
    }
    return true;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof PathPattern && Arrays.equals(parts, ((PathPattern) o).parts);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(parts);
  }

  @Override
  public String toString() {
    return text;
  }
}
