package dev.sluice.http;

import java.io.IOException;

/**
 * Sluice's own endpoint for operators, asked before any rule: a request it answers is neither
 * limited nor counted, and one it does not answer (not its path, not allowed) goes on as any other
 * request, so that the endpoint never shows itself to who may not use it.
 */
public interface Admin {
  /** No endpoint: every request goes on to the rules. */
  Admin NONE =
      new Admin() {
        @Override
        public boolean answered(Exchange exchange) {
          return false;
        }
      };

  /** Answers {@code exchange} and returns true when it is a request to the endpoint it allows. */
  boolean answered(Exchange exchange) throws IOException;
}
