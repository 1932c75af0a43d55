package dev.sluice.config;

import dev.sluice.support.Nearest;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;

/**
 * One YAML mapping read field by field from SnakeYAML's node tree, which keeps every value's line
 * and column (SnakeYAML never constructs an object from the file). A value of the wrong type is
 * reported with its place and read as absent; {@link #finish} reports every field nobody asked for,
 * which is how typos surface.
 */
final class Fields {
  /** Said of a value that would be right as it is, were it not quoted: "5" is text, 5 a number. */
  private static final String UNQUOTE = ": remove the quotes, which make it text";

  private final String path;
  private final Node node;
  private final Problems problems;

  /** Fields not taken yet, by name: the key (where an unknown one is reported) and the value. */
  private final Map<String, NodeTuple> unread = new LinkedHashMap<>();

  private final Map<String, Node> read = new HashMap<>();

  Fields(Node node, String path, Problems problems) {
    this.path = path;
    this.node = node;
    this.problems = problems;
    if (!(node instanceof MappingNode)) {
      problems.at(node, path, "must be a mapping of fields");
      return;
    }
    for (NodeTuple tuple : ((MappingNode) node).getValue()) {
      Node key = tuple.getKeyNode();
      String name = key instanceof ScalarNode ? ((ScalarNode) key).getValue() : null;
      if (name == null) {
        problems.at(key, path, "field names must be plain words");
      } else if (unread.containsKey(name)) {
        problems.at(key, pathOf(name), "appears twice");
      } else {
        unread.put(name, tuple);
      }
    }
  }

  /** False when the value is not a mapping (already reported); it then has no fields. */
  boolean isMapping() {
    return node instanceof MappingNode;
  }

  /** The mapping itself, for problems that concern it as a whole. */
  Node node() {
    return node;
  }

  String pathOf(String name) {
    return path.isEmpty() ? name : path + "." + name;
  }

  /** Where {@code name} was given, once read; else the mapping itself. */
  Node where(String name) {
    Node at = read.get(name);
    return at == null ? node : at;
  }

  /** The raw value of {@code name}, or null when absent; takes it off the list of unknowns. */
  Node take(String name) {
    NodeTuple field = unread.remove(name);
    Node value = field == null ? null : field.getValueNode();
    if (value != null && value.getTag().equals(Tag.NULL)) {
      // "limit:" with nothing after it would otherwise quietly fall back to defaults.
      problems.at(
          field.getKeyNode(),
          pathOf(name),
          "has no value; give one, or remove the line to use the default");
      return null;
    }
    if (value == null) {
      return null;
    }
    read.put(name, value);
    return value;
  }

  /** The names of the fields not taken yet, in file order. */
  List<String> names() {
    return new ArrayList<>(unread.keySet());
  }

  /** Reports every field not taken, with the known one it may be a typo of. */
  void finish(String... known) {
    for (Map.Entry<String, NodeTuple> unknown : unread.entrySet()) {
      problems.at(
          unknown.getValue().getKeyNode(),
          pathOf(unknown.getKey()),
          "unknown field"
              + Nearest.hint(unknown.getKey(), known)
              + " (known here: "
              + String.join(", ", known)
              + ")");
    }
    unread.clear();
  }

  String string(String name) {
    Node value = take(name);
    return value == null ? null : scalar(value, pathOf(name));
  }

  /** A whole number from 1 to {@link ConfigParser#MAX_COUNT}, or null. */
  Long positive(String name) {
    return positive(name, "");
  }

  /**
   * As {@link #positive(String)}, with {@code hint} after the message when it is no such number.
   */
  Long positive(String name, String hint) {
    Node value = take(name);
    return value == null ? null : positive(value, pathOf(name), hint);
  }

  /** A whole number from 0 to {@link ConfigParser#MAX_COUNT}, or null. */
  Long countFromZero(String name) {
    Node value = take(name);
    if (value instanceof ScalarNode
        && value.getTag().equals(Tag.INT)
        && ((ScalarNode) value).getValue().matches("\\+?0")) {
      return 0L;
    }
    return value == null ? null : positive(value, pathOf(name), " (or 0)");
  }

  Boolean bool(String name) {
    Node value = take(name);
    if (value == null) {
      return null;
    }
    if (value instanceof ScalarNode && value.getTag().equals(Tag.BOOL)) {
      return Boolean.valueOf(
          ((ScalarNode) value).getValue().toLowerCase(Locale.ROOT).matches("true|yes|on|y"));
    }
    boolean quotedBool =
        value instanceof ScalarNode
            && ((ScalarNode) value).getValue().toLowerCase(Locale.ROOT).matches("true|false");
    problems.at(value, pathOf(name), "must be true or false" + (quotedBool ? UNQUOTE : ""));
    return null;
  }

  /** A duration in microseconds, or null. */
  Long duration(String name) {
    String text = string(name);
    if (text == null) {
      return null;
    }
    long micros = Durations.parseMicros(text);
    if (micros < 0) {
      problems.at(
          where(name),
          pathOf(name),
          "must be a duration from 1ms to 365d such as 500ms, "
              + "1s, 1m, 1h or 1d, got \""
              + text
              + "\"");
      return null;
    }
    return micros;
  }

  /** One of an enum's constants, written in lower case as in ratelimit.yaml; or null. */
  <E extends Enum<E>> E choice(String name, Class<E> type) {
    String text = string(name);
    if (text == null) {
      return null;
    }
    List<String> names = new ArrayList<>();
    for (E e : type.getEnumConstants()) {
      String configName = e.name().toLowerCase(Locale.ROOT);
      if (configName.equals(text)) {
        return e;
      }
      names.add(configName);
    }
    problems.at(
        where(name),
        pathOf(name),
        "must be one of " + String.join(", ", names) + ", got \"" + text + "\"");
    return null;
  }

  /** A nested mapping, or null. */
  Fields fields(String name) {
    Node value = take(name);
    return value == null ? null : new Fields(value, pathOf(name), problems);
  }

  /** A list of single values; a single value is read as a list of one. Null when absent. */
  List<String> strings(String name) {
    List<Value> values = values(name);
    if (values == null) {
      return null;
    }
    List<String> out = new ArrayList<>(values.size());
    for (Value value : values) {
      out.add(value.text);
    }
    return out;
  }

  /**
   * Like {@link #strings}, but each value keeps its own place, so a problem with the third item of
   * a list points at the third item. Null when absent.
   */
  List<Value> values(String name) {
    Node value = take(name);
    if (value == null) {
      return null;
    }
    List<Value> out = new ArrayList<>();
    if (value instanceof ScalarNode) {
      out.add(new Value(((ScalarNode) value).getValue(), value, pathOf(name)));
      return out;
    }
    if (!(value instanceof SequenceNode)) {
      problems.at(value, pathOf(name), "must be a single value or a list of values");
      return out;
    }
    List<Node> items = ((SequenceNode) value).getValue();
    for (int i = 0; i < items.size(); i++) {
      String at = pathOf(name) + "[" + i + "]";
      String item = scalar(items.get(i), at);
      if (item != null) {
        out.add(new Value(item, items.get(i), at));
      }
    }
    return out;
  }

  /** The items of a sequence, or none after reporting anything else. */
  List<Node> items(Node value, String at) {
    if (value instanceof SequenceNode) {
      return ((SequenceNode) value).getValue();
    }
    problems.at(value, at, "must be a list");
    return Collections.emptyList();
  }

  private String scalar(Node value, String at) {
    if (value instanceof ScalarNode) {
      return ((ScalarNode) value).getValue();
    }
    problems.at(value, at, "must be a single value");
    return null;
  }

  private Long positive(Node value, String at, String hint) {
    String text = value instanceof ScalarNode ? ((ScalarNode) value).getValue() : null;
    Long count = text == null ? null : count(text);
    if (count != null && value.getTag().equals(Tag.INT)) {
      return count;
    }
    problems.at(
        value,
        at,
        "must be a whole number from 1 to "
            + ConfigParser.MAX_COUNT
            + (text == null ? "" : ", got \"" + text + "\"")
            + (count != null ? UNQUOTE : "")
            + hint);
    return null;
  }

  /** The number {@code text} writes, from 1 to {@link ConfigParser#MAX_COUNT}; else null. */
  private static Long count(String text) {
    // No leading zero: YAML 1.1 reads 010 as octal 8, and no reader should have to guess.
    if (!text.matches("\\+?[1-9][0-9_]{0,12}")) {
      return null;
    }
    long n = Long.parseLong(text.replace("_", "").replace("+", ""));
    return n <= ConfigParser.MAX_COUNT ? n : null;
  }

  /** One single value of a list, with its place in the file. */
  static final class Value {
    final String text;
    final Node node;
    final String path;

    Value(String text, Node node, String path) {
      this.text = text;
      this.node = node;
      this.path = path;
    }
  }
}
