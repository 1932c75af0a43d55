package dev.sluice.http;

import dev.sluice.core.RequestView;
import java.io.IOException;

/**
 * One request and its response, as the Filter or the agent reaches them. Everything Sluice writes
 * to a response goes through these methods, so every entry point answers alike.
 */
public interface Exchange extends RequestView {
  /**
   * Marks the request as decided and returns true, or returns false if it already was (a forward,
   * include, error page or async re-dispatch of a request that was counted once already).
   */
  boolean markDecided();

  void setHeader(String name, String value);

  /** Writes a complete response that ends the request. */
  void reject(int status, String contentType, String body) throws IOException;
}
