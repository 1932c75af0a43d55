package dev.sluice.config;

import java.util.ArrayList;
import java.util.List;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeId;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.resolver.Resolver;

/**
 * How a document edited through the rules API is written back in its own style: the indentation of
 * its block lists ({@code rules:} then {@code "  - id: ..."}, or the items at the key's column),
 * and a rule sent as JSON written like the rule it replaces, or the rules beside it (block or flow,
 * plain or quoted), not as the body spelled it.
 */
final class YamlStyle {
  private static final Resolver RESOLVER = new Resolver();

  private YamlStyle() {}

  /**
   * Options that write block lists as {@code list} has them: its items indented under their key
   * ({@code "  - "}), or at the key's column; {@code key} is the list's key in the document.
   */
  static DumperOptions options(Node key, Node list) {
    DumperOptions options = new DumperOptions();
    options.setSplitLines(false);
    if (list instanceof SequenceNode
        && ((SequenceNode) list).getFlowStyle() == DumperOptions.FlowStyle.BLOCK
        && key.getStartMark() != null
        && list.getStartMark() != null
        && list.getStartMark().getColumn() > key.getStartMark().getColumn()) {
      options.setIndent(2);
      options.setIndicatorIndent(2);
      options.setIndentWithIndicator(true);
    }
    return options;
  }

  /**
   * {@code fresh} in the style of {@code like} where they have the same fields (the same nesting of
   * mappings and lists, the same quoting), its other quoted scalars plain where plain reads the
   * same; {@code like} is null where there is nothing to follow (the first rule of a list).
   * Collections are restyled in place; a scalar is made anew (its style is final).
   */
  static Node like(Node fresh, Node like) {
    if (fresh instanceof MappingNode) {
      MappingNode mapping = (MappingNode) fresh;
      if (like instanceof MappingNode) {
        mapping.setFlowStyle(((MappingNode) like).getFlowStyle());
      }
      List<NodeTuple> fields = new ArrayList<>();
      for (NodeTuple field : mapping.getValue()) {
        fields.add(
            new NodeTuple(
                like(field.getKeyNode(), null),
                like(field.getValueNode(), fieldOf(like, field.getKeyNode()))));
      }
      mapping.setValue(fields);
    } else if (fresh instanceof SequenceNode) {
      SequenceNode sequence = (SequenceNode) fresh;
      Node likeItem = null;
      if (like instanceof SequenceNode) {
        sequence.setFlowStyle(((SequenceNode) like).getFlowStyle());
        List<Node> theirs = ((SequenceNode) like).getValue();
        likeItem = theirs.isEmpty() ? null : theirs.get(0);
      }
      List<Node> items = sequence.getValue();
      for (int i = 0; i < items.size(); i++) {
        items.set(i, like(items.get(i), likeItem));
      }
    } else if (fresh instanceof ScalarNode) {
      return quotedLike((ScalarNode) fresh, like);
    }
    return fresh;
  }

  /** Quoted as {@code like} is, if a scalar; else plain where plain reads as the same value. */
  private static ScalarNode quotedLike(ScalarNode scalar, Node like) {
    DumperOptions.ScalarStyle wanted =
        like instanceof ScalarNode
            ? ((ScalarNode) like).getScalarStyle()
            : DumperOptions.ScalarStyle.PLAIN;
    if (wanted == scalar.getScalarStyle()
        || (wanted == DumperOptions.ScalarStyle.PLAIN
            && !RESOLVER.resolve(NodeId.scalar, scalar.getValue(), true).equals(scalar.getTag()))) {
      return scalar; // "100" quoted is a string, which plain 100 would not be
    }
    return new ScalarNode(
        scalar.getTag(), scalar.getValue(), scalar.getStartMark(), scalar.getEndMark(), wanted);
  }

  /** The value of {@code key}'s field in {@code mapping}; null when none, or not a mapping. */
  private static Node fieldOf(Node mapping, Node key) {
    if (mapping instanceof MappingNode && key instanceof ScalarNode) {
      for (NodeTuple field : ((MappingNode) mapping).getValue()) {
        if (field.getKeyNode() instanceof ScalarNode
            && ((ScalarNode) field.getKeyNode()).getValue().equals(((ScalarNode) key).getValue())) {
          return field.getValueNode();
        }
      }
    }
    return null;
  }
}
