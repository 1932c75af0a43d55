package dev.sluice.config;

import dev.sluice.admin.WriteCredentials;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.ScalarNode;

/**
 * Reads {@code admin.write_token}: who may change the rules through the endpoint. One token, {@code
 * write_token: "${SLUICE_ADMIN_WRITE_TOKEN}"}, is a credential named {@code write_token}; a
 * mapping, {@code write_token: { deploy: "${DEPLOY_TOKEN}", alice: "${ALICE_TOKEN}" }}, names each,
 * and the name is who wrote in the log and the published history. As with the read token, a
 * credential whose variable is unset is off, with a warning, never open; a write token is never the
 * read token, nor another credential's (who wrote could not be told).
 */
final class WriteTokenReader {
  static final String FIELD = "write_token";

  private WriteTokenReader() {}

  /** The credentials {@code value} gives; {@code readToken} is admin.token (null when none). */
  static WriteCredentials read(
      Node value,
      String path,
      String readToken,
      Problems problems,
      Map<String, String> environment) {
    if (value == null) {
      return WriteCredentials.NONE;
    }
    Map<String, Fields.Value> given = new LinkedHashMap<>();
    if (value instanceof MappingNode) {
      Fields f = new Fields(value, path, problems);
      for (String name : f.names()) {
        if (!name.matches(RuleReader.ID)) {
          problems.at(
              f.where(name),
              path,
              "names must be 1 to 64 of A-Z a-z 0-9 _ . -, got \"" + name + "\"");
        }
        List<Fields.Value> one = f.values(name);
        if (one != null && one.size() == 1) {
          given.put(name, one.get(0));
        } else if (one != null) {
          problems.at(f.where(name), f.pathOf(name), "must be one value");
        }
      }
    } else if (value instanceof ScalarNode) {
      given.put(FIELD, new Fields.Value(((ScalarNode) value).getValue(), value, path));
    } else {
      problems.at(value, path, "must be one token, or a mapping of names to tokens");
    }
    Map<String, String> tokens = new LinkedHashMap<>();
    for (Map.Entry<String, Fields.Value> credential : given.entrySet()) {
      String token = token(credential.getValue(), readToken, tokens, problems, environment);
      if (token != null) {
        tokens.put(credential.getKey(), token);
      }
    }
    return new WriteCredentials(tokens);
  }

  private static String token(
      Fields.Value value,
      String readToken,
      Map<String, String> others,
      Problems problems,
      Map<String, String> environment) {
    List<String> unset = new ArrayList<>();
    UrlTemplate.expand(value.text, environment, unset);
    if (!unset.isEmpty()) {
      problems.warn(
          value.node,
          value.path,
          "names the environment variable "
              + unset.get(0)
              + ", which is not set: writes to the rules are off with it until it is; the"
              + " endpoint's reads and the rules are not affected");
      return null;
    }
    String token = AdminReader.token(value, problems, environment);
    if (token == null) {
      return null;
    }
    if (token.equals(readToken)) {
      problems.at(value.node, value.path, "must not be the read token (admin.token)");
      return null;
    }
    for (Map.Entry<String, String> other : others.entrySet()) {
      if (other.getValue().equals(token)) {
        problems.at(
            value.node,
            value.path,
            "is the token of " + other.getKey() + " too; every credential needs its own");
        return null;
      }
    }
    return token;
  }
}
