package dev.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.StringReader;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.SequenceNode;

class ProblemsTest {

  @Test
  void nothingToThrowWhenEmpty() throws InvalidConfigException {
    Problems problems = new Problems("f");
    assertThat(problems.isEmpty()).isTrue();
    problems.throwIfAny();
  }

  @Test
  void placesAreOneBasedAndNullMeansNoPlace() {
    Node node = new Yaml().compose(new StringReader("a: 1\nb:   2\n"));
    Problems problems = new Problems("f.yaml");
    problems.at(node, "x", "whole");
    problems.at((Mark) null, "", "nowhere");
    problems.at((Node) null, "y", "nowhere either");
    assertThat(problems.isEmpty()).isFalse();

    InvalidConfigException e =
        catchThrowableOfType(InvalidConfigException.class, problems::throwIfAny);
    assertThat(e.errors())
        .extracting(ConfigError::toString)
        .containsExactly("f.yaml: nowhere", "f.yaml: y: nowhere either", "f.yaml:1:1: x: whole");
  }

  @Test
  void throwsEveryProblemInFileOrder() {
    Node root = new Yaml().compose(new StringReader("a: 1\nb: 2\nc: [3, 4]\n"));
    Node b = ((MappingNode) root).getValue().get(1).getValueNode();
    Node c = ((MappingNode) root).getValue().get(2).getValueNode();
    Node c1 = ((SequenceNode) c).getValue().get(1);
    Problems problems = new Problems("f");
    problems.at(c1, "c[1]", "fourth");
    problems.at(b, "b", "second, found first");
    problems.at(c, "c", "third");
    problems.at(b, "b", "second, found second");
    problems.at(root, "", "first");

    InvalidConfigException e =
        catchThrowableOfType(InvalidConfigException.class, problems::throwIfAny);
    assertThat(e.errors())
        .extracting(ConfigError::message)
        .containsExactly("first", "second, found first", "second, found second", "third", "fourth");
  }
}
