package dev.sluice.core;

/** One request as the rules see it: each fact is worked out once, and only if a rule asks. */
final class Subject {
  final RequestView request;
  private final Rules rules;
  private String ip;
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
    return request.header(rules.apiKeyHeader());
  }

  boolean peerIsTrusted() {
    return rules.clientIp().peerIsTrusted(request);
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
