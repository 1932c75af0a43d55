package dev.sluice.config;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.nodes.Node;

/**
 * Collects every problem of one file, so the user sees them all at once, not one per edit: errors,
 * which reject the file, and warnings, which do not.
 */
final class Problems {
  private final String file;
  private final List<ConfigError> errors = new ArrayList<>();
  private final Map<String, ConfigError> warnings = new LinkedHashMap<>();

  Problems(String file) {
    this.file = file;
  }

  void at(Node node, String field, String message) {
    at(node == null ? null : node.getStartMark(), field, message);
  }

  void at(Mark mark, String field, String message) {
    int line = mark == null ? 0 : mark.getLine() + 1;
    int column = mark == null ? 0 : mark.getColumn() + 1;
    errors.add(new ConfigError(file, line, column, field, message));
  }

  /**
   * Something that does not stop the file from loading but is likely not what its author meant; a
   * place warned about twice (defaults that several rules take) is one warning.
   */
  void warn(Node node, String field, String message) {
    Mark mark = node.getStartMark();
    ConfigError warning =
        new ConfigError(file, mark.getLine() + 1, mark.getColumn() + 1, field, message);
    warnings.put(warning.toString(), warning);
  }

  /** The warnings, in the order of the file. */
  List<ConfigError> warnings() {
    return inFileOrder(warnings.values());
  }

  int errorCount() {
    return errors.size();
  }

  boolean isEmpty() {
    return errors.isEmpty();
  }

  /** Throws every problem found, in the order of the file, like a compiler. */
  void throwIfAny() throws InvalidConfigException {
    if (!errors.isEmpty()) {
      throw new InvalidConfigException(inFileOrder(errors));
    }
  }

  private static List<ConfigError> inFileOrder(Collection<ConfigError> problems) {
    List<ConfigError> sorted = new ArrayList<>(problems);
    // Stable: problems at one place keep the order they were found in.
    Collections.sort(
        sorted,
        new Comparator<ConfigError>() {
          @Override
          public int compare(ConfigError a, ConfigError b) {
            int byLine = Integer.compare(a.line(), b.line());
            return byLine != 0 ? byLine : Integer.compare(a.column(), b.column());
          }
        });
    return sorted;
  }
}
