package dev.sluice.config;

import dev.sluice.admin.RulesWrite;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;
import org.yaml.snakeyaml.representer.Representer;

/**
 * One rule added, replaced or deleted in a document, on SnakeYAML's node tree: everything else of
 * the document (other sections, other rules, comments, quoting, flow or block style) is written
 * back as it was read. Nothing is validated here; the document that results is checked as a whole,
 * as {@code check} checks a file.
 */
final class RulesEdit {
  private RulesEdit() {}

  /** Why an edit cannot be made: the status to answer (400, 404) and what to say. */
  static final class Refused extends Exception {
    final int status;

    Refused(int status, String detail) {
      super(detail);
      this.status = status;
    }
  }

  /** {@code base} with {@code write}'s rule change made (not for a whole document). */
  static byte[] apply(byte[] base, RulesWrite write) throws Refused {
    Node root = compose(new String(base, StandardCharsets.UTF_8), "the document in force");
    if (root == null) {
      root = new MappingNode(Tag.MAP, new ArrayList<NodeTuple>(), DumperOptions.FlowStyle.BLOCK);
    }
    if (!(root instanceof MappingNode)) {
      throw new Refused(400, "the document in force is not a mapping; PUT a whole document");
    }
    NodeTuple field = rulesOf((MappingNode) root);
    DumperOptions style = YamlStyle.options(field.getKeyNode(), field.getValueNode());
    List<Node> rules = ((SequenceNode) field.getValueNode()).getValue();
    int at = write.id() == null ? -1 : indexOf(rules, write.id());
    if (write.id() != null && at < 0) {
      throw new Refused(404, "no rule has the id " + write.id());
    }
    if (write.kind() == RulesWrite.Kind.DELETE) {
      rules.remove(at);
      return serialize(root, style);
    }
    Node rule = compose(new String(write.content(), StandardCharsets.UTF_8), "the body");
    if (!(rule instanceof MappingNode)) {
      throw new Refused(400, "the body must be one rule: a mapping of its fields");
    }
    if (write.kind() == RulesWrite.Kind.ADD) {
      rules.add(YamlStyle.like(rule, rules.isEmpty() ? null : rules.get(rules.size() - 1)));
    } else {
      String id = idOf(rule);
      if (id == null) {
        ((MappingNode) rule).getValue().add(0, new NodeTuple(scalar("id"), scalar(write.id())));
      } else if (!id.equals(write.id())) {
        throw new Refused(
            400,
            "the body's id, " + id + ", is not the path's, " + write.id() + "; they must agree");
      }
      rules.set(at, YamlStyle.like(rule, rules.get(at)));
    }
    return serialize(root, style);
  }

  /** The document's {@code rules} field, added as an empty list when it has none. */
  private static NodeTuple rulesOf(MappingNode root) throws Refused {
    for (NodeTuple tuple : root.getValue()) {
      if (tuple.getKeyNode() instanceof ScalarNode
          && "rules".equals(((ScalarNode) tuple.getKeyNode()).getValue())) {
        if (!(tuple.getValueNode() instanceof SequenceNode)) {
          throw new Refused(400, "the document's rules are not a list; PUT a whole document");
        }
        return tuple;
      }
    }
    NodeTuple rules =
        new NodeTuple(
            scalar("rules"),
            new SequenceNode(Tag.SEQ, new ArrayList<Node>(), DumperOptions.FlowStyle.BLOCK));
    root.getValue().add(rules);
    return rules;
  }

  private static int indexOf(List<Node> rules, String id) {
    for (int i = 0; i < rules.size(); i++) {
      if (id.equals(idOf(rules.get(i)))) {
        return i;
      }
    }
    return -1;
  }

  private static String idOf(Node rule) {
    if (rule instanceof MappingNode) {
      for (NodeTuple field : ((MappingNode) rule).getValue()) {
        if (field.getKeyNode() instanceof ScalarNode
            && "id".equals(((ScalarNode) field.getKeyNode()).getValue())
            && field.getValueNode() instanceof ScalarNode) {
          return ((ScalarNode) field.getValueNode()).getValue();
        }
      }
    }
    return null;
  }

  private static ScalarNode scalar(String text) {
    return new ScalarNode(Tag.STR, text, null, null, DumperOptions.ScalarStyle.PLAIN);
  }

  /**
   * {@code text}'s node tree, with its comments when SnakeYAML's comment handling can read them: it
   * throws on some that are valid YAML (one right after the {@code [} of a flow list), and the
   * document is then composed without them rather than refused.
   */
  private static Node compose(String text, String what) throws Refused {
    Node node;
    try {
      node = compose(text, true);
    } catch (RuntimeException e) {
      try {
        node = compose(text, false);
      } catch (YAMLException invalid) {
        throw new Refused(400, what + " is not YAML (or JSON): " + invalid.getMessage());
      }
    }
    return node == null || node.getTag().equals(Tag.NULL) ? null : node;
  }

  private static Node compose(String text, boolean comments) {
    LoaderOptions options = ConfigParser.loaderOptions();
    options.setProcessComments(comments);
    return new Yaml(new SafeConstructor(options)).compose(new StringReader(text));
  }

  /**
   * The document {@code root} is, in {@code style}, with its comments where SnakeYAML can write them
   * back: it cannot always (a comment before a flow mapping in a block list comes out as broken
   * YAML, or throws), so the commented text is kept only when it reads back as the same document,
   * else written without.
   */
  private static byte[] serialize(Node root, DumperOptions style) throws Refused {
    String plain = serialize(root, false, style);
    boolean same;
    String commented = null;
    try {
      commented = serialize(root, true, style);
      Node again = compose(commented, "");
      same = again != null && serialize(again, false, style).equals(plain);
    } catch (Refused | RuntimeException e) {
      same = false;
    }
    return (same ? commented : plain).getBytes(StandardCharsets.UTF_8);
  }

  /** {@code root} written without its comments, in SnakeYAML's default style. */
  static String serialize(Node root) {
    DumperOptions options = new DumperOptions();
    options.setSplitLines(false);
    return serialize(root, false, options);
  }

  private static String serialize(Node root, boolean comments, DumperOptions options) {
    options.setProcessComments(comments);
    StringWriter out = new StringWriter();
    new Yaml(
            new SafeConstructor(ConfigParser.loaderOptions()),
            new Representer(options),
            options,
            ConfigParser.loaderOptions())
        .serialize(root, out);
    return out.toString();
  }
}
