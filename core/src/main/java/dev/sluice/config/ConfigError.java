package dev.sluice.config;

/** One problem in a ratelimit.yaml, with where it is: file, line, column and field. */
public final class ConfigError {
  private final String file;
  private final int line;
  private final int column;
  private final String field;
  private final String message;

  ConfigError(String file, int line, int column, String field, String message) {
    this.file = file;
    this.line = line;
    this.column = column;
    this.field = field;
    this.message = message;
  }

  public String file() {
    return file;
  }

  /** 1-based; 0 when the problem is not tied to a place (an unreadable file). */
  public int line() {
    return line;
  }

  public int column() {
    return column;
  }

  /** The field's path, e.g. {@code rules[1].limit}; empty for the whole file. */
  public String field() {
    return field;
  }

  public String message() {
    return message;
  }

  /**
   * {@code file:line:column: field: message}, as in {@code ratelimit.yaml:12:12: rules[1].limit:
   * must be a whole number from 1 to 1000000000, got "0"}; without the place when the line is not
   * known, and without the field when the problem concerns the whole file.
   */
  @Override
  public String toString() {
    String place = line > 0 ? file + ":" + line + ":" + column : file;
    return place + ": " + (field.isEmpty() ? "" : field + ": ") + message;
  }
}
