package dev.sluice.config;

import dev.sluice.core.Rules;
import java.io.IOException;

/**
 * The rules a local file says now, read and checked, with nothing opened: no store, no Redis, no
 * published version. What the agent applies, by each rule's {@code on_error}, to a request that
 * cannot wait any longer for the rules to be in force.
 */
public final class FileRules {
  private FileRules() {}

  /**
   * The rules of {@code source}'s file ({@link Rules#NONE} when it says {@code enabled: false});
   * null when there is no valid file to read.
   */
  public static Rules read(ConfigSource source) {
    try {
      Document document = new LocalFile(source).read();
      if (document == null || document.config() == null) {
        return null;
      }
      Config config = document.config();
      return config.enabled() ? config.rules() : Rules.NONE;
    } catch (IOException | RuntimeException e) {
      return null; // loading itself reads the file again, and says what is wrong with it
    }
  }
}
