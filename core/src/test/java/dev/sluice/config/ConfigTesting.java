package dev.sluice.config;

import static org.assertj.core.api.Assertions.fail;

import dev.sluice.core.Rule;
import java.util.ArrayList;
import java.util.List;

/** Parses YAML for the tests of this package, and names errors compactly: line and field. */
final class ConfigTesting {
  static final String FILE = "ratelimit.yaml";

  private ConfigTesting() {}

  static Config parse(String yaml) {
    try {
      return ConfigParser.parse(FILE, yaml);
    } catch (InvalidConfigException e) {
      throw new AssertionError("expected a valid config, got:\n" + e.getMessage(), e);
    }
  }

  static List<ConfigError> errors(String yaml) {
    try {
      ConfigParser.parse(FILE, yaml);
    } catch (InvalidConfigException e) {
      return e.errors();
    }
    return fail(
        "expected the config to be rejected:\n"
            + (yaml.length() > 500 ? yaml.substring(0, 500) + "..." : yaml));
  }

  /** Each error as {@code "line field"}, e.g. {@code "4 rules[0].limit"}. */
  static List<String> places(String yaml) {
    List<String> places = new ArrayList<>();
    for (ConfigError e : errors(yaml)) {
      places.add(e.line() + " " + e.field());
    }
    return places;
  }

  /** The one error of {@code yaml}, failing if there are more or none. */
  static ConfigError onlyError(String yaml) {
    List<ConfigError> errors = errors(yaml);
    if (errors.size() != 1) {
      fail("expected one error, got:\n" + errors);
    }
    return errors.get(0);
  }

  static Rule rule(Config config, String id) {
    for (Rule rule : config.rules().rules()) {
      if (rule.id().equals(id)) {
        return rule;
      }
    }
    return fail("no rule " + id + " in " + config.rules().rules());
  }
}
