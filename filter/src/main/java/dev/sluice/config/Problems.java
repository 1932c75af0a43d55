package dev.sluice.config;

import java.util.ArrayList;
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

  void throwIfAny() throws InvalidConfigException {
    if (!errors.isEmpty()) {
      throw new InvalidConfigException(errors);
    }
  }
}
