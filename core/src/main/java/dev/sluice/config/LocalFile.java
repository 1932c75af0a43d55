package dev.sluice.config;

import java.io.IOException;
import java.util.Arrays;

/**
 * The local ratelimit.yaml as {@link Document}s, each content parsed once: the last valid one and
 * the last rejected one are remembered, so a file that stays broken costs one small read a poll,
 * and an edit undone puts back the document in force without parsing it again.
 */
final class LocalFile {
  private final ConfigSource source;
  private Document valid;
  private Document rejected;
  private int parses;

  LocalFile(ConfigSource source) {
    this.source = source;
  }

  /**
   * The file's document now; null when there is no file.
   *
   * @throws IOException when it cannot be read
   */
  Document read() throws IOException {
    byte[] content;
    try {
      content = source.read();
    } catch (InvalidConfigException e) {
      return Document.invalid(source.name(), null, e.getMessage()); // too large to read
    }
    if (content == null) {
      return null;
    }
    for (Document known : new Document[] {valid, rejected}) {
      if (known != null && Arrays.equals(content, known.content())) {
        return known;
      }
    }
    parses++;
    Document read = Document.parse(source.name(), source.name(), content);
    if (read.config() != null) {
      valid = read;
    } else {
      rejected = read;
    }
    return read;
  }

  /** How many times content was parsed: for tests. */
  int parses() {
    return parses;
  }
}
