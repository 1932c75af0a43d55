package dev.sluice.config;

import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Iterator;
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

/**
 * A document without the sections each JVM keeps of its own local file ({@link #NAMES}): what the
 * rules API shows and publishes. They are never applied from a published version, and they hold
 * the credentials of the JVM: the Redis URL with its password, the admin tokens. So a reader of
 * {@code /rules} never sees them, and a write never publishes them (the first write, based on the
 * local file, would otherwise publish all of it).
 *
 * <p>The sections are cut out of the text, line by line, with the comment lines right above them:
 * everything else stays byte for byte. A document whose top level is not a block mapping (JSON, a
 * flow mapping), or whose cut text would not read back (an alias into a cut section), is written
 * anew from its node tree, without comments.
 */
final class LocalSections {
  /** The top-level sections a JVM takes from its own file, never from a published version. */
  static final List<String> NAMES =
      Arrays.asList("store", "fleet", "rules_from", "client_ip", "admin");

  private LocalSections() {}

  /** {@code content} without the local sections; {@code content} itself when it has none. */
  static byte[] leftOut(byte[] content) {
    String text = new String(content, StandardCharsets.UTF_8);
    Node root = compose(text);
    if (!(root instanceof MappingNode) || !hasAny((MappingNode) root)) {
      return content;
    }
    MappingNode mapping = (MappingNode) root;
    String cut = mapping.getFlowStyle() == DumperOptions.FlowStyle.FLOW ? null : cutLines(text, mapping);
    if (cut == null || !readsAsWithout(cut, text)) {
      removeFrom(mapping);
      return RulesEdit.serialize(mapping).getBytes(StandardCharsets.UTF_8);
    }
    return cut.getBytes(StandardCharsets.UTF_8);
  }

  private static boolean isLocal(NodeTuple tuple) {
    return tuple.getKeyNode() instanceof ScalarNode
        && NAMES.contains(((ScalarNode) tuple.getKeyNode()).getValue());
  }

  private static boolean hasAny(MappingNode root) {
    for (NodeTuple tuple : root.getValue()) {
      if (isLocal(tuple)) {
        return true;
      }
    }
    return false;
  }

  private static void removeFrom(MappingNode root) {
    for (Iterator<NodeTuple> it = root.getValue().iterator(); it.hasNext(); ) {
      if (isLocal(it.next())) {
        it.remove();
      }
    }
  }

  /**
   * The text without the lines of each local section: from its key's line (and the comment lines
   * right above it) to the next section's (less the comment lines right above that one, which are
   * the next section's), or to the end.
   */
  private static String cutLines(String text, MappingNode root) {
    String[] lines = text.split("\n", -1);
    boolean[] drop = new boolean[lines.length];
    List<NodeTuple> tuples = root.getValue();
    for (int i = 0; i < tuples.size(); i++) {
      if (!isLocal(tuples.get(i))) {
        continue;
      }
      int from = tuples.get(i).getKeyNode().getStartMark().getLine();
      if (tuples.get(i).getKeyNode().getStartMark().getColumn()
          != root.getStartMark().getColumn()) {
        return null; // not one key a line: leave it to the node tree
      }
      int to =
          i + 1 < tuples.size()
              ? tuples.get(i + 1).getKeyNode().getStartMark().getLine()
              : lines.length;
      from = aboveComments(lines, from);
      to = i + 1 < tuples.size() ? aboveComments(lines, to) : to;
      for (int line = from; line < to; line++) {
        drop[line] = true;
      }
    }
    StringBuilder kept = new StringBuilder(text.length());
    for (int line = 0; line < lines.length; line++) {
      if (!drop[line]) {
        kept.append(lines[line]);
        if (line + 1 < lines.length) {
          kept.append('\n');
        }
      }
    }
    return kept.toString();
  }

  /** The first of the comment lines right above {@code line}; {@code line} when there are none. */
  private static int aboveComments(String[] lines, int line) {
    while (line > 0 && lines[line - 1].trim().startsWith("#")) {
      line--;
    }
    return line;
  }

  /** Whether {@code cut} reads as the document of {@code text} without its local sections. */
  private static boolean readsAsWithout(String cut, String text) {
    Node again = compose(cut);
    MappingNode whole = (MappingNode) compose(text);
    removeFrom(whole);
    return again instanceof MappingNode
        && RulesEdit.serialize(again).equals(RulesEdit.serialize(whole));
  }

  private static Node compose(String text) {
    LoaderOptions options = ConfigParser.loaderOptions();
    try {
      return new Yaml(new SafeConstructor(options)).compose(new StringReader(text));
    } catch (YAMLException e) {
      return null;
    }
  }
}
