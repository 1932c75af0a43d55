package dev.sluice.config;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.nodes.Node;

/** Collects every problem of one file, so the user sees them all at once, not one per edit. */
final class Problems {
  private final String file;
  private final List<ConfigError> errors = new ArrayList<>();

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

  boolean isEmpty() {
    return errors.isEmpty();
  }

  /** Throws every problem found, in the order of the file, like a compiler. */
  void throwIfAny() throws InvalidConfigException {
    if (!errors.isEmpty()) {
      List<ConfigError> sorted = new ArrayList<>(errors);
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
      throw new InvalidConfigException(sorted);
    }
  }
}
