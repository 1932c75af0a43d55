package dev.sluice.config;

import dev.sluice.core.Key;
import dev.sluice.core.Responses;
import dev.sluice.core.RuleResponse;

/** Reads the {@code response} section, and a rule's own {@code response}. */
final class ResponseReader {
  static final String DEFAULT_CONTENT_TYPE = "text/plain";

  /** A 429 body is read by people and programs, not downloaded: 16 KiB is plenty. */
  static final int MAX_BODY_CHARS = 16 * 1024;

  private static final String TOKEN = Key.HTTP_TOKEN;
  private static final String MEDIA_TYPE =
      TOKEN + "/" + TOKEN + "(\\s*;\\s*" + TOKEN + "=(" + TOKEN + "|\"[^\"\\\\\\r\\n]*\"))*";

  private ResponseReader() {}

  static Responses read(Fields f, Problems problems) {
    if (f == null) {
      return Responses.DEFAULT;
    }
    Responses.Headers headers = f.choice("headers", Responses.Headers.class);
    Responses.Reset reset = f.choice("reset", Responses.Reset.class);
    Responses.Body body = f.choice("body", Responses.Body.class);
    Boolean hide = f.bool("hide_rule_ids");
    f.finish("headers", "reset", "body", "hide_rule_ids");
    if (headers == Responses.Headers.IETF && reset == Responses.Reset.EPOCH_SECONDS) {
      problems.at(
          f.where("reset"),
          f.pathOf("reset"),
          "applies to headers: x_ratelimit only (the RateLimit field's t is always in seconds"
              + " from now)");
    }
    Responses defaults = Responses.DEFAULT;
    return new Responses(
        headers == null ? defaults.headers() : headers,
        reset == null ? defaults.reset() : reset,
        body == null ? defaults.body() : body,
        Boolean.TRUE.equals(hide));
  }

  /**
   * A rule's own {@code response}: the standard 429 when {@code f} is null; null when the rule has
   * no valid id (reported elsewhere: the rule is rejected anyway).
   */
  static RuleResponse rule(String ruleId, Fields f, Problems problems) {
    if (f == null) {
      return ruleId == null ? null : RuleResponse.standard(ruleId);
    }
    Long status = f.positive("status");
    String body = f.string("body");
    String contentType = f.string("content_type");
    f.finish("status", "body", "content_type");
    if (status != null && (status < 400 || status > 599)) {
      problems.at(
          f.where("status"),
          f.pathOf("status"),
          "must be an error status from 400 to 599, got " + status);
    }
    if (body != null && body.length() > MAX_BODY_CHARS) {
      problems.at(
          f.where("body"),
          f.pathOf("body"),
          "has " + body.length() + " characters; the most a body may have is " + MAX_BODY_CHARS);
    }
    if (contentType != null && body == null) {
      problems.at(
          f.where("content_type"),
          f.pathOf("content_type"),
          "applies to a rule's own body only: give body too, or remove it");
    } else if (contentType != null && !contentType.matches(MEDIA_TYPE)) {
      problems.at(
          f.where("content_type"),
          f.pathOf("content_type"),
          "must be a media type such as text/plain or application/json, got \""
              + contentType
              + "\"");
    }
    return ruleId == null
        ? null
        : new RuleResponse(
            ruleId,
            status == null ? RuleResponse.TOO_MANY_REQUESTS : status.intValue(),
            body,
            contentType == null ? DEFAULT_CONTENT_TYPE : contentType);
  }
}
