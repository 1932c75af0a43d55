package dev.sluice.core;

import dev.sluice.support.ShortHash;

/**
 * How one rule answers a request it denies: the status, and a body of its own or none (then the
 * file's {@code response.body} format is used). Also the name that stands for the rule when rule
 * ids are hidden from clients. Immutable.
 */
public final class RuleResponse {
  public static final int TOO_MANY_REQUESTS = 429;

  private final int status;
  private final String body;
  private final String contentType;
  private final String hiddenName;

  /**
   * @param body sent as is in place of the generated one, or null
   * @param contentType the media type of {@code body}
   */
  public RuleResponse(String ruleId, int status, String body, String contentType) {
    this.status = status;
    this.body = body;
    this.contentType = contentType;
    this.hiddenName = ShortHash.of(ruleId);
  }

  /** A plain 429 with the file's body. */
  public static RuleResponse standard(String ruleId) {
    return new RuleResponse(ruleId, TOO_MANY_REQUESTS, null, null);
  }

  public int status() {
    return status;
  }

  /** The rule's own body, or null for the file's {@code response.body} format. */
  public String body() {
    return body;
  }

  public String contentType() {
    return contentType;
  }

  /**
   * 12 hex digits of the SHA-256 of the id: the same in every JVM and across reloads, so clients
   * can tell rules apart and follow one over time without learning what it is called. Not a secret:
   * whoever guesses an id can hash it.
   */
  public String hiddenName() {
    return hiddenName;
  }
}
