package dev.sluice.config;

import dev.sluice.core.Cors;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** Reads the {@code cors} section. */
final class CorsReader {
  /** A serialized origin: scheme, host and port, no path, as browsers send it. */
  private static final String ORIGIN = "[A-Za-z][A-Za-z0-9+.-]*://[^/?#@\\s]+";

  private CorsReader() {}

  static Cors read(Fields f, Problems problems) {
    if (f == null) {
      return Cors.NONE;
    }
    Boolean count = f.bool("count_preflights");
    List<Fields.Value> origins = f.values("allowed_origins");
    Boolean credentials = f.bool("allow_credentials");
    f.finish("count_preflights", "allowed_origins", "allow_credentials");
    Set<String> allowed = new LinkedHashSet<>();
    for (Fields.Value origin : origins == null ? Collections.<Fields.Value>emptyList() : origins) {
      if (!origin.text.equals(Cors.ANY_ORIGIN) && !origin.text.matches(ORIGIN)) {
        problems.at(
            origin.node,
            origin.path,
            "must be an origin such as https://app.example.com (scheme://host[:port], no path)"
                + " or \"*\", got \""
                + origin.text
                + "\"");
      }
      allowed.add(origin.text);
    }
    if (Boolean.TRUE.equals(credentials) && allowed.contains(Cors.ANY_ORIGIN)) {
      // Browsers refuse credentials with Access-Control-Allow-Origin: *, and Sluice never echoes
      // an origin it was not given.
      problems.at(
          f.where("allow_credentials"),
          f.pathOf("allow_credentials"),
          "cannot be true with allowed_origins \"*\": list the origins");
    }
    return new Cors(Boolean.TRUE.equals(count), allowed, Boolean.TRUE.equals(credentials));
  }
}
