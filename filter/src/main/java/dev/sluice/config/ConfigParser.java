package dev.sluice.config;

import dev.sluice.core.Cidr;
import dev.sluice.core.ClientIp;
import dev.sluice.core.PathPattern;
import dev.sluice.core.Rule;
import dev.sluice.core.Rules;
import dev.sluice.core.Tiers;
import dev.sluice.store.MemoryStore;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.Node;

/**
 * Reads ratelimit.yaml into a {@link Config}, or fails with every problem found, each naming the
 * file, line, column and field. Nothing half-valid is ever returned: a reload either applies a whole
 * file or keeps the rules in force.
 */
public final class ConfigParser {
  static final long MAX_COUNT = 1_000_000_000L;
  private static final String HEADER_NAME = "[A-Za-z0-9!#$%&'*+.^_`|~-]+";

  private final Problems problems;

  private ConfigParser(String file) {
    this.problems = new Problems(file);
  }

  /** Parses {@code content}; {@code file} names it in error messages. */
  public static Config parse(String file, String content) throws InvalidConfigException {
    ConfigParser parser = new ConfigParser(file);
    Config config = parser.document(compose(content, parser.problems));
    parser.problems.throwIfAny();
    return config;
  }

  private static Node compose(String content, Problems problems) {
    LoaderOptions options = new LoaderOptions();
    options.setMaxAliasesForCollections(20);
    options.setNestingDepthLimit(32);
    options.setCodePointLimit(1 << 20);
    try {
      Node root = new Yaml(new SafeConstructor(options)).compose(new StringReader(content));
      if (root == null) {
        problems.at((Mark) null, "", "the file is empty; write `rules: []` to limit nothing");
      }
      return root;
    } catch (MarkedYAMLException e) {
      problems.at(e.getProblemMark(), "", "not valid YAML: " + e.getProblem());
    } catch (YAMLException e) {
      problems.at((Mark) null, "", "not valid YAML: " + e.getMessage());
    }
    return null;
  }

  private Config document(Node root) {
    if (root == null) {
      return null;
    }
    Fields top = new Fields(root, "", problems);
    StoreSettings store = store(top.fields("store"));
    Fields defaultFields = top.fields("defaults");
    RuleValues defaults = defaultFields == null ? new RuleValues()
        : RuleValues.read(defaultFields, problems);
    if (defaultFields != null) {
      defaultFields.finish(RuleValues.FIELDS);
    }
    ClientIp clientIp = clientIp(top.fields("client_ip"));
    String apiKeyHeader = header(top, "api_key_header", Rules.DEFAULT_API_KEY_HEADER);
    List<PathPattern> excludes = patterns(top, "exclude");
    Tiers tiers = tiers(top.fields("tiers"));
    List<Rule> rules = new ArrayList<>();
    Node ruleList = top.take("rules");
    if (ruleList != null) {
      RuleReader reader = new RuleReader(problems, defaults);
      List<Node> items = top.items(ruleList, "rules");
      for (int i = 0; i < items.size(); i++) {
        Rule rule = reader.read(items.get(i), "rules[" + i + "]");
        if (rule != null) {
          rules.add(rule);
        }
      }
    }
    top.finish("store", "defaults", "client_ip", "api_key_header", "exclude", "tiers", "rules");
    return new Config(store, new Rules(rules, excludes, clientIp, tiers, apiKeyHeader));
  }

  private StoreSettings store(Fields f) {
    if (f == null) {
      return StoreSettings.DEFAULT;
    }
    String type = f.string("type");
    if (type != null && !type.equals("memory")) {
      problems.at(f.where("type"), f.pathOf("type"), type.equals("redis")
          ? "the redis store is not in this version of Sluice yet; use memory"
          : "must be memory, got \"" + type + "\"");
    }
    Long maxKeys = f.positive("max_keys");
    f.finish("type", "max_keys");
    return new StoreSettings("memory", maxKeys == null ? MemoryStore.DEFAULT_MAX_KEYS : maxKeys);
  }

  private ClientIp clientIp(Fields f) {
    List<Cidr> trusted = new ArrayList<>();
    if (f != null) {
      List<String> cidrs = f.strings("trusted_proxies");
      for (String text : cidrs == null ? Collections.<String>emptyList() : cidrs) {
        try {
          trusted.add(Cidr.parse(text));
        } catch (IllegalArgumentException e) {
          problems.at(f.where("trusted_proxies"), f.pathOf("trusted_proxies"), e.getMessage());
        }
      }
      f.finish("trusted_proxies");
    }
    return new ClientIp(trusted);
  }

  private Tiers tiers(Fields f) {
    if (f == null) {
      return Tiers.NONE;
    }
    String header = header(f, "header", null);
    Map<String, String> byKey = new HashMap<>();
    Fields apiKeys = f.fields("api_keys");
    if (apiKeys != null) {
      for (String tier : apiKeys.names()) {
        List<String> keys = apiKeys.strings(tier);
        for (String key : keys == null ? Collections.<String>emptyList() : keys) {
          String other = byKey.put(key, tier);
          if (other != null) {
            problems.at(apiKeys.where(tier), apiKeys.pathOf(tier),
                "API key \"" + key + "\" is also in tier " + other);
          }
        }
      }
    }
    f.finish("header", "api_keys");
    return new Tiers(header, byKey);
  }

  private String header(Fields f, String name, String fallback) {
    String value = f.string(name);
    if (value != null && !value.matches(HEADER_NAME)) {
      problems.at(f.where(name), f.pathOf(name), "must be a header name, got \"" + value + "\"");
    }
    return value == null ? fallback : value;
  }

  /** Path patterns given as one value or a list. */
  static List<PathPattern> patterns(Fields f, String name, Problems problems) {
    List<PathPattern> patterns = new ArrayList<>();
    List<String> texts = f.strings(name);
    for (String text : texts == null ? Collections.<String>emptyList() : texts) {
      try {
        patterns.add(PathPattern.compile(text));
      } catch (IllegalArgumentException e) {
        problems.at(f.where(name), f.pathOf(name), "\"" + text + "\": " + e.getMessage());
      }
    }
    return patterns;
  }

  private List<PathPattern> patterns(Fields f, String name) {
    return patterns(f, name, problems);
  }
}
