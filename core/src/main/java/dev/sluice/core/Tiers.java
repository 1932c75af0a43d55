package dev.sluice.core;

import java.util.Collections;
import java.util.HashMap;
import java.util.Map;

/**
 * Where a request's tier comes from: a static map of API keys, else a header that only a trusted
 * proxy may set (a client must never pick its own tier).
 */
public final class Tiers {
  public static final Tiers NONE = new Tiers(null, Collections.<String, String>emptyMap());

  private final String header;
  private final Map<String, String> tierByApiKey;

  /**
   * @param header the tier header honoured from trusted proxies, or null
   * @param tierByApiKey API key to tier name
   */
  public Tiers(String header, Map<String, String> tierByApiKey) {
    this.header = header;
    this.tierByApiKey = Collections.unmodifiableMap(new HashMap<>(tierByApiKey));
  }

  String tierOf(Subject subject) {
    String apiKey = subject.apiKey();
    String tier = apiKey == null ? null : tierByApiKey.get(apiKey);
    if (tier != null || header == null || !subject.peerIsTrusted()) {
      return tier;
    }
    String claimed = subject.request.header(header);
    return claimed == null || claimed.trim().isEmpty() ? null : claimed.trim();
  }
}
