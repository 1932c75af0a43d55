package dev.sluice.core;

import java.util.Collections;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;

/**
 * What Sluice does about browsers' cross-origin requests ({@code cors} in ratelimit.yaml). A CORS
 * preflight is the browser asking whether it may send a request, not the client's request itself,
 * so by default it is not counted: otherwise every cross-origin call would spend two permits of a
 * rule without {@code methods}. And since Sluice answers before the application's CORS handling
 * does, a 429 carries CORS headers of its own for the origins listed here, or a browser could not
 * read its {@code Retry-After}.
 */
public final class Cors {
  public static final Cors NONE = new Cors(false, Collections.<String>emptySet(), false);
  public static final String ANY_ORIGIN = "*";

  private final boolean countPreflights;
  private final Set<String> allowedOrigins;
  private final boolean allowCredentials;

  /**
   * @param allowedOrigins serialized origins ({@code https://app.example.com}) or {@code *}
   */
  public Cors(boolean countPreflights, Set<String> allowedOrigins, boolean allowCredentials) {
    this.countPreflights = countPreflights;
    Set<String> origins = new HashSet<>();
    for (String origin : allowedOrigins) {
      origins.add(origin.toLowerCase(Locale.ROOT));
    }
    this.allowedOrigins = Collections.unmodifiableSet(origins);
    this.allowCredentials = allowCredentials;
  }

  /** Whether {@code request} passes uncounted: a preflight, unless preflights are counted. */
  boolean skips(RequestView request) {
    return !countPreflights
        && "OPTIONS".equals(request.method())
        && request.header("Origin") != null
        && request.header("Access-Control-Request-Method") != null;
  }

  /**
   * The {@code Access-Control-Allow-Origin} of a 429 to a request from {@code origin} (null when
   * the request names none): {@code *} if any origin is allowed, the origin itself if it is listed,
   * else null: no CORS headers.
   */
  public String allowOrigin(String origin) {
    if (origin == null) {
      return null;
    }
    if (allowedOrigins.contains(ANY_ORIGIN)) {
      return ANY_ORIGIN;
    }
    // Scheme and host are case-insensitive; the browser compares the header with what it sent.
    return allowedOrigins.contains(origin.toLowerCase(Locale.ROOT)) ? origin : null;
  }

  public boolean allowCredentials() {
    return allowCredentials;
  }
}
