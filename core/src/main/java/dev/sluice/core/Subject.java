package dev.sluice.core;

/** One request as the rules see it: each fact is worked out once, and only if a rule asks. */
final class Subject {
  final RequestView request;
  private final Rules rules;
  private String ip;
  private String apiKey;
  private boolean apiKeyKnown;
  private int peerTrusted; // 0 unknown, 1 yes, -1 no
  private String tier;
  private boolean tierKnown;

  Subject(RequestView request, Rules rules) {
    this.request = request;
    this.rules = rules;
  }

  String ip() {
    if (ip == null) {
      ip = rules.clientIp().resolve(request);
    }
    return ip;
  }

  String apiKey() {
    if (!apiKeyKnown) {
      apiKey = request.header(rules.apiKeyHeader());
      apiKeyKnown = true;
    }
    return apiKey;
  }

  boolean peerIsTrusted() {
    if (peerTrusted == 0) {
      peerTrusted = rules.clientIp().peerIsTrusted(request) ? 1 : -1;
    }
    return peerTrusted > 0;
  }

  /** The request's tier, or null. */
  String tier() {
    if (!tierKnown) {
      tier = rules.tiers().tierOf(this);
      tierKnown = true;
    }
    return tier;
  }
}
