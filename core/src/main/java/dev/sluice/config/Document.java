package dev.sluice.config;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Content that may be put in force, parsed once: the local file, or a version published in Redis
 * ({@link RulesFromRedis}) with the local file's store. It names where it came from for the log,
 * and may carry a problem to report while it stays in force (Redis unreachable, say).
 */
final class Document {
  private final String name;
  private final byte[] content;
  private final byte[] local;
  private final Config config;
  private final String errors;
  private final String problem;

  /** The {@link RulesVersion} of {@link #content}, worked out once; null when invalid. */
  private final String version;

  /** The number of the version published in Redis this is; 0 for a local file. */
  private final long published;

  private Document(
      String name,
      byte[] content,
      byte[] local,
      Config config,
      String errors,
      String problem,
      String version,
      long published) {
    this.name = name;
    this.content = content;
    this.local = local;
    this.config = config;
    this.errors = errors;
    this.problem = problem;
    this.version = version;
    this.published = published;
  }

  /**
   * Parses {@code content}; {@code file} names it in errors (file:line:column), {@code name} in the
   * log.
   */
  static Document parse(String name, String file, byte[] content) {
    try {
      Config config = ConfigParser.parse(file, new String(content, StandardCharsets.UTF_8));
      return new Document(name, content, null, config, null, null, RulesVersion.of(content), 0);
    } catch (InvalidConfigException e) {
      return invalid(name, content, e.getMessage());
    }
  }

  /** Content rejected for {@code errors}; {@code content} is null when it was not even read. */
  static Document invalid(String name, byte[] content, String errors) {
    return new Document(name, content, null, null, errors, null, null, 0);
  }

  /**
   * This valid published document as a JVM whose local file is {@code local} puts it in force (see
   * {@link Config#publishedUnder}); a change of either is a change to apply.
   */
  Document under(Document local) {
    return new Document(
        name,
        content,
        local.content,
        config.publishedUnder(local.config),
        null,
        problem,
        version,
        published);
  }

  /** The same document, reporting {@code problem} (a whole log message) while it is in force. */
  Document reporting(String problem) {
    return new Document(name, content, local, config, errors, problem, version, published);
  }

  /** The same document, as version {@code number} published in Redis. */
  Document published(long number) {
    return new Document(name, content, local, config, errors, problem, version, number);
  }

  /** The number of the published version this is; 0 for a local file. */
  long publishedNumber() {
    return published;
  }

  String name() {
    return name;
  }

  /** The bytes whose hash is the rules version; null for a file too large to read. */
  byte[] content() {
    return content;
  }

  /** The rules version of this document, as logs and metrics name it; null when invalid. */
  String version() {
    return version;
  }

  /** What to apply; null when invalid. */
  Config config() {
    return config;
  }

  /** Every error found, one a line; null when valid. */
  String errors() {
    return errors;
  }

  /** What to report while this document is in force; null when nothing is wrong. */
  String problem() {
    return problem;
  }

  /** Whether {@code other} would put in force exactly what this one does: no need to apply. */
  boolean sameAs(Document other) {
    return other != null
        && content != null
        && Arrays.equals(content, other.content)
        && Arrays.equals(local, other.local);
  }

  @Override
  public String toString() {
    return name;
  }
}
