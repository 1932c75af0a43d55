package dev.sluice.config;

import dev.sluice.admin.AdminSettings;
import dev.sluice.core.Cidr;
import dev.sluice.core.ClientIp;
import dev.sluice.core.Cors;
import dev.sluice.core.Key;
import dev.sluice.core.PathPattern;
import dev.sluice.core.Responses;
import dev.sluice.core.Rule;
import dev.sluice.core.Rules;
import dev.sluice.core.Tiers;
import dev.sluice.store.Consistency;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.Tag;

/**
 * Reads ratelimit.yaml into a {@link Config}, or fails with every problem found, each naming the
 * file, line, column and field. Nothing half-valid is ever returned: a reload either applies a
 * whole file or keeps the rules in force.
 */
public final class ConfigParser {
  static final long MAX_COUNT = 1_000_000_000L;
  static final int MAX_CHARS = 1 << 20;

  /**
   * The most rules a file may have. Every request is matched against each rule, and each rule has
   * its counters and metrics: a file of 12,444 one-line rules (under a megabyte) took 360 MB of
   * heap before segments were made lazily. A thousand is far above any file seen in use.
   */
  static final int MAX_RULES = 1_000;

  private final Problems problems;
  private final Map<String, String> environment;

  private ConfigParser(String file, Map<String, String> environment) {
    this.problems = new Problems(file);
    this.environment = environment;
  }

  /** Parses {@code content}; {@code file} names it in error messages. */
  public static Config parse(String file, String content) throws InvalidConfigException {
    return parse(file, content, System.getenv());
  }

  /** Parses {@code content}, expanding {@code ${NAME}} in Redis URLs from {@code environment}. */
  public static Config parse(String file, String content, Map<String, String> environment)
      throws InvalidConfigException {
    ConfigParser parser = new ConfigParser(file, environment);
    Config config = parser.document(compose(content, parser.problems));
    parser.problems.throwIfAny();
    return config;
  }

  /** SnakeYAML's limits for a file: few aliases, shallow nesting, no more than a file may hold. */
  static LoaderOptions loaderOptions() {
    LoaderOptions options = new LoaderOptions();
    options.setMaxAliasesForCollections(20);
    options.setNestingDepthLimit(32);
    options.setCodePointLimit(MAX_CHARS);
    return options;
  }

  private static Node compose(String content, Problems problems) {
    if (content.length() > MAX_CHARS) {
      // SnakeYAML's own limit misses a long comment at the end; this one misses nothing.
      problems.at(
          (Mark) null,
          "",
          "the file has "
              + content.length()
              + " characters; the most "
              + "Sluice reads is "
              + MAX_CHARS);
      return null;
    }
    LoaderOptions options = loaderOptions();
    try {
      Node root = new Yaml(new SafeConstructor(options)).compose(new StringReader(content));
      if (root != null && root.getTag().equals(Tag.NULL)) {
        root = null; // "---" or "~" alone: as empty as no text at all
      }
      if (root == null) {
        problems.at((Mark) null, "", "the file is empty; write `rules: []` to limit nothing");
      }
      return root;
    } catch (MarkedYAMLException e) {
      problems.at(e.getProblemMark(), "", "not valid YAML: " + describe(e));
    } catch (YAMLException e) {
      problems.at((Mark) null, "", "not valid YAML: " + e.getMessage());
    }
    return null;
  }

  /** SnakeYAML's problem, after its context ("while parsing a flow sequence") when it has one. */
  private static String describe(MarkedYAMLException e) {
    String problem = e.getProblem();
    if (problem != null && problem.endsWith("found ':'")) {
      // The usual cause: an IPv6 address such as ::1/128 unquoted inside [ ].
      problem += " (quote values that start with ':', e.g. \"::1/128\")";
    }
    if (problem != null && problem.endsWith("expected ',' or '}', but got {")) {
      // The usual cause: an environment variable unquoted inside { }.
      problem +=
          " (quote a value that starts with $ inside { }, e.g. token: \"${SLUICE_ADMIN_TOKEN}\")";
    }
    Mark context = e.getContextMark();
    Mark at = e.getProblemMark();
    problem += indentationHint(problem, context, at);
    if (e.getContext() == null) {
      return problem;
    }
    boolean elsewhere = context != null && (at == null || context.getLine() != at.getLine());
    return e.getContext()
        + (elsewhere ? " at line " + (context.getLine() + 1) : "")
        + ", "
        + problem;
  }

  /**
   * What SnakeYAML's words mean when, as is most often the case, a line is indented one step too
   * far or not far enough: its text names tokens, not the line to fix.
   */
  private static String indentationHint(String problem, Mark context, Mark at) {
    if (problem == null || at == null) {
      return "";
    }
    int line = at.getLine() + 1;
    if (problem.startsWith("expected <block end>, but found")) {
      return " (check the indentation of line "
          + line
          + ": it must line up with the fields above it at its level, such as the other fields"
          + " of the same rule, using spaces only)";
    }
    if (problem.startsWith("mapping values are not allowed here")) {
      return " (line "
          + line
          + " is indented further than the field before it, or it has a value containing \": \""
          + " that needs quotes)";
    }
    if (problem.startsWith("could not find expected ':'") && context != null) {
      return " (line "
          + (context.getLine() + 1)
          + " needs a ':' after its field name, or a line after it is indented wrongly)";
    }
    return "";
  }

  private Config document(Node root) {
    if (root == null) {
      return null;
    }
    Fields top = new Fields(root, "", problems);
    Boolean enabled = top.bool("enabled");
    Fields storeFields = top.fields("store");
    Fields fleetFields = top.fields("fleet");
    int errorsBefore = problems.errorCount();
    Consistency storeConsistency = ConsistencyReader.store(storeFields, problems);
    StoreSettings store = new StoreReader(problems, environment).read(storeFields, fleetFields);
    boolean rulesFromRedis = rulesFrom(top, store, problems.errorCount() == errorsBefore);
    Fields defaultFields = top.fields("defaults");
    RuleValues defaults =
        defaultFields == null ? new RuleValues() : RuleValues.read(defaultFields, problems);
    if (defaultFields != null) {
      defaultFields.finish(RuleValues.FIELDS);
    }
    ClientIp clientIp = clientIp(top.fields("client_ip"));
    String apiKeyHeader = header(top, "api_key_header", Rules.DEFAULT_API_KEY_HEADER, problems);
    List<PathPattern> excludes = patterns(top, "exclude");
    TierReader tierReader = new TierReader(problems, !clientIp.trustedProxies().isEmpty());
    Tiers tiers = tierReader.read(top.fields("tiers"));
    Cors cors = CorsReader.read(top.fields("cors"), problems);
    Responses responses = ResponseReader.read(top.fields("response"), problems);
    MetricsSettings metrics = MetricsSettings.read(top.fields("metrics"), problems);
    AdminSettings admin =
        AdminReader.read(top.fields("admin"), problems, environment, clientIp, rulesFromRedis);
    Long shadowFor = shadowFor(top.fields("rollout"));
    List<Rule> rules = new ArrayList<>();
    Node ruleList = top.take("rules");
    if (ruleList != null) {
      RuleReader reader = new RuleReader(problems, defaults, tierReader, storeConsistency);
      List<Node> items = top.items(ruleList, "rules");
      if (items.size() > MAX_RULES) {
        problems.at(
            ruleList,
            "rules",
            "at most " + MAX_RULES + " rules, got " + items.size() + "; none of them was read");
        items = new ArrayList<>();
      }
      for (int i = 0; i < items.size(); i++) {
        Rule rule = reader.read(items.get(i), "rules[" + i + "]");
        if (rule != null) {
          rules.add(rule);
        }
      }
    }
    Long maxWaiting = top.positive("max_waiting");
    top.finish(
        "enabled",
        "store",
        "fleet",
        "rules_from",
        "defaults",
        "client_ip",
        "api_key_header",
        "exclude",
        "max_waiting",
        "tiers",
        "rules",
        "cors",
        "response",
        "metrics",
        "admin",
        "rollout");
    return new Config(
        store,
        storeFields != null || fleetFields != null,
        rulesFromRedis,
        new Rules(rules, excludes, clientIp, tiers, apiKeyHeader, cors, responses)
            .withMaxWaiting(maxWaiting == null ? Rules.DEFAULT_MAX_WAITING : maxWaiting.intValue()),
        !Boolean.FALSE.equals(enabled),
        problems.warnings(),
        metrics,
        admin,
        shadowFor == null ? 0 : shadowFor);
  }

  /** The {@code rollout} section's {@code shadow_for}, or null. */
  private static Long shadowFor(Fields f) {
    if (f == null) {
      return null;
    }
    Long shadowFor = f.duration("shadow_for");
    f.finish("shadow_for");
    return shadowFor;
  }

  /**
   * Whether the file says {@code rules_from: redis} (the default is {@code file}), which needs the
   * Redis store: the rules are read from its Redis. Not said of a store section found invalid.
   */
  private boolean rulesFrom(Fields top, StoreSettings store, boolean storeValid) {
    String from = top.string("rules_from");
    if (from == null || from.equals("file")) {
      return false;
    }
    if (!from.equals("redis")) {
      problems.at(
          top.where("rules_from"), "rules_from", "must be file or redis, got \"" + from + "\"");
      return false;
    }
    if (store.redis() == null && storeValid) {
      problems.at(
          top.where("rules_from"),
          "rules_from",
          "redis needs store.type: redis: the rules are read from the store's Redis");
    }
    return true;
  }

  private ClientIp clientIp(Fields f) {
    if (f == null) {
      return new ClientIp(Collections.<Cidr>emptyList());
    }
    List<Cidr> trusted = new ArrayList<>();
    List<Fields.Value> cidrs = f.values("trusted_proxies");
    for (Fields.Value cidr : cidrs == null ? Collections.<Fields.Value>emptyList() : cidrs) {
      try {
        trusted.add(Cidr.parse(cidr.text));
      } catch (IllegalArgumentException e) {
        problems.at(cidr.node, cidr.path, e.getMessage());
      }
    }
    String chain = f.string("header");
    String chainHeader = ClientIp.X_FORWARDED_FOR;
    if (chain != null && chain.equalsIgnoreCase(ClientIp.FORWARDED)) {
      chainHeader = ClientIp.FORWARDED;
    } else if (chain != null && !chain.equalsIgnoreCase(ClientIp.X_FORWARDED_FOR)) {
      problems.at(
          f.where("header"),
          f.pathOf("header"),
          "must be X-Forwarded-For or Forwarded, got \"" + chain + "\"");
    }
    Long prefix = f.positive("ipv6_prefix");
    if (prefix != null && prefix > 128) {
      problems.at(
          f.where("ipv6_prefix"), f.pathOf("ipv6_prefix"), "must be from 1 to 128, got " + prefix);
    }
    f.finish("trusted_proxies", "header", "ipv6_prefix");
    return new ClientIp(
        trusted,
        chainHeader,
        prefix == null || prefix > 128 ? ClientIp.DEFAULT_IPV6_PREFIX : prefix.intValue());
  }

  /** A header name, or {@code fallback} when not given. */
  static String header(Fields f, String name, String fallback, Problems problems) {
    String value = f.string(name);
    if (value != null && !value.matches(Key.HTTP_TOKEN)) {
      problems.at(f.where(name), f.pathOf(name), "must be a header name, got \"" + value + "\"");
    }
    return value == null ? fallback : value;
  }

  /** Path patterns given as one value or a list; null when absent. */
  static List<PathPattern> patterns(Fields f, String name, Problems problems) {
    List<Fields.Value> texts = f.values(name);
    if (texts == null) {
      return null;
    }
    List<PathPattern> patterns = new ArrayList<>();
    for (Fields.Value text : texts) {
      try {
        patterns.add(PathPattern.compile(text.text));
      } catch (IllegalArgumentException e) {
        problems.at(text.node, text.path, "\"" + text.text + "\": " + e.getMessage());
      }
    }
    return patterns;
  }

  private List<PathPattern> patterns(Fields f, String name) {
    List<PathPattern> patterns = patterns(f, name, problems);
    return patterns == null ? Collections.<PathPattern>emptyList() : patterns;
  }
}
