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
    List<Node> rules = rulesOf((MappingNode) root);
    int at = write.id() == null ? -1 : indexOf(rules, write.id());
    if (write.id() != null && at < 0) {
      throw new Refused(404, "no rule has the id " + write.id());
    }
    if (write.kind() == RulesWrite.Kind.DELETE) {
      rules.remove(at);
      return serialize(root);
    }
    Node rule = compose(new String(write.content(), StandardCharsets.UTF_8), "the body");
    if (!(rule instanceof MappingNode)) {
      throw new Refused(400, "the body must be one rule: a mapping of its fields");
    }
    if (write.kind() == RulesWrite.Kind.ADD) {
      rules.add(rule);
    } else {
      String id = idOf(rule);
      if (id == null) {
        ((MappingNode) rule).getValue().add(0, new NodeTuple(scalar("id"), scalar(write.id())));
      } else if (!id.equals(write.id())) {
        throw new Refused(
            400,
            "the body's id, " + id + ", is not the path's, " + write.id() + "; they must agree");
      }
      rules.set(at, rule);
    }
    return serialize(root);
  }

  /** The items of the document's {@code rules}, added as an empty list when it has none. */
  private static List<Node> rulesOf(MappingNode root) throws Refused {
    for (NodeTuple tuple : root.getValue()) {
      if (tuple.getKeyNode() instanceof ScalarNode
          && "rules".equals(((ScalarNode) tuple.getKeyNode()).getValue())) {
        if (!(tuple.getValueNode() instanceof SequenceNode)) {
          throw new Refused(400, "the document's rules are not a list; PUT a whole document");
        }
        return ((SequenceNode) tuple.getValueNode()).getValue();
      }
    }
    SequenceNode rules =
        new SequenceNode(Tag.SEQ, new ArrayList<Node>(), DumperOptions.FlowStyle.BLOCK);
    root.getValue().add(new NodeTuple(scalar("rules"), rules));
    return rules.getValue();
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

  private static Node compose(String text, String what) throws Refused {
    LoaderOptions options = ConfigParser.loaderOptions();
    options.setProcessComments(true);
    try {
      Node node = new Yaml(new SafeConstructor(options)).compose(new StringReader(text));
      return node == null || node.getTag().equals(Tag.NULL) ? null : node;
    } catch (YAMLException e) {
      throw new Refused(400, what + " is not YAML (or JSON): " + e.getMessage());
    }
  }

  /**
   * The document {@code root} is, with its comments where SnakeYAML can write them back: it cannot
   * always (a comment before a flow mapping in a block list comes out as broken YAML), so the
   * commented text is kept only when it reads back as the same document, else written without.
   */
  private static byte[] serialize(Node root) throws Refused {
    String plain = serialize(root, false);
    String commented = serialize(root, true);
    Node again;
    try {
      again = compose(commented, "");
    } catch (Refused e) {
      again = null;
    }
    boolean same = again != null && serialize(again, false).equals(plain);
    return (same ? commented : plain).getBytes(StandardCharsets.UTF_8);
  }

  static String serialize(Node root, boolean comments) {
    DumperOptions options = new DumperOptions();
    options.setProcessComments(comments);
    options.setSplitLines(false);
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
