package dev.sluice.config;

import static dev.sluice.config.ConfigTesting.FILE;
import static dev.sluice.config.ConfigTesting.errors;
import static dev.sluice.config.ConfigTesting.onlyError;
import static dev.sluice.config.ConfigTesting.parse;
import static dev.sluice.config.ConfigTesting.places;
import static dev.sluice.config.ConfigTesting.rule;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.sluice.algo.Algorithm;
import dev.sluice.core.CoreAccess;
import dev.sluice.core.Rule;
import dev.sluice.core.Rules;
import dev.sluice.core.TestRequest;
import dev.sluice.store.MemoryStore;
import dev.sluice.store.OnError;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.Constructor;

class ConfigParserTest {
  /** Set if anything ever loads {@link Canary}: a YAML tag must never reach a class. */
  static final AtomicBoolean CANARY_TOUCHED = new AtomicBoolean();

  static final class Canary {
    static {
      CANARY_TOUCHED.set(true);
    }

    Canary() {
      CANARY_TOUCHED.set(true);
    }
  }

  private static final String CANARY_TAG = "!!dev.sluice.config.ConfigParserTest$Canary";

  private static final String FULL =
      """
      store:
        type: memory
        max_keys: 50000
      client_ip:
        trusted_proxies: [10.0.0.0/8, "::1/128"]
      api_key_header: X-Key
      exclude:
        - /health
        - /static/**
      tiers:
        header: X-Plan
        api_keys:
          gold: [k-gold-1, k-gold-2]
          free: k-free
      defaults:
        key: ip
        window: 1m
        on_error: fail_closed
      rules:
        - id: login
          match: { path: /login, methods: POST }
          limit: 5
          algorithm: fixed_window
        - id: api
          match:
            path: [/api/**, /v2/*/items]
            methods: [get, POST]
          key: [ip, user]
          limit: 100
          window: 10s
          algorithm: token_bucket
          burst: 150
          cost: 2
          tiers: { gold: 1000, free: 10 }
          on_error: fail_open
          shadow: true
        - id: search
          match: { path: /search }
          key: header:X-Tenant
          limit: 20
          algorithm: token_bucket
          tiers: { gold: 200 }
        - id: everything
          match: { path: "/**" }
          key: global
          limit: 10000
          window: 500ms
          algorithm: sliding_window
          shadow: false
      """;

  /** Issue 28: 12,444 rules in under a megabyte were valid and took the heap. */
  @Test
  void aFileHasAtMostAThousandRules() {
    StringBuilder rules = new StringBuilder("rules:\n");
    for (int i = 0; i < ConfigParser.MAX_RULES; i++) {
      rules.append("- { id: r").append(i).append(", match: { path: /a }, key: ip, limit: 1,");
      rules.append(" window: 1s }\n");
    }
    assertThat(parse(rules.toString()).rules().rules()).hasSize(1_000);
    rules.append("- { id: one-more, match: { path: /a }, key: ip, limit: 1, window: 1s }\n");
    ConfigError error = onlyError(rules.toString());
    assertThat(error.line()).isEqualTo(2);
    assertThat(error.field()).isEqualTo("rules");
    assertThat(error.message()).isEqualTo("at most 1000 rules, got 1001; none of them was read");
  }

  @Test
  void fullConfigParsesEveryField() {
    Config config = parse(FULL);
    Rules rules = config.rules();

    assertThat(config.store().type()).isEqualTo("memory");
    assertThat(config.store().maxKeys()).isEqualTo(50_000);
    assertThat(rules.clientIp().trustedProxies())
        .extracting(Object::toString)
        .containsExactly("10.0.0.0/8", "::1/128");
    assertThat(rules.apiKeyHeader()).isEqualTo("X-Key");
    assertThat(rules.excludes())
        .extracting(Object::toString)
        .containsExactly("/health", "/static/**");
    assertThat(CoreAccess.isExcluded(rules, "/static/css/site.css")).isTrue();
    assertThat(CoreAccess.isExcluded(rules, "/login")).isFalse();
    assertThat(rules.rules())
        .extracting(Rule::id)
        .containsExactly("login", "api", "search", "everything");
  }

  @Test
  void fullConfigRulesCarryTheirValues() {
    Rules rules = parse(FULL).rules();

    Rule login = rule(parse(FULL), "login");
    assertThat(login.algorithm()).isEqualTo(Algorithm.FIXED_WINDOW);
    assertThat(login.quota().limit()).isEqualTo(5);
    assertThat(login.quota().windowMicros()).isEqualTo(60_000_000L);
    assertThat(login.quota().burst()).isEqualTo(5);
    assertThat(login.key()).hasToString("ip");
    assertThat(login.cost()).isEqualTo(1);
    assertThat(login.shadow()).isFalse();
    assertThat(login.onError()).isEqualTo(OnError.FAIL_CLOSED);
    assertThat(login.tierQuotas()).isEmpty();
    assertThat(CoreAccess.matches(login, "POST", "/login;jsessionid=1")).isTrue();
    assertThat(CoreAccess.matches(login, "GET", "/login")).isFalse();

    Rule api = rules.rules().get(1);
    assertThat(api.algorithm()).isEqualTo(Algorithm.TOKEN_BUCKET);
    assertThat(api.quota().limit()).isEqualTo(100);
    assertThat(api.quota().windowMicros()).isEqualTo(10_000_000L);
    assertThat(api.quota().burst()).isEqualTo(150);
    assertThat(api.key()).hasToString("ip, user");
    assertThat(api.cost()).isEqualTo(2);
    assertThat(api.shadow()).isTrue();
    assertThat(api.onError()).isEqualTo(OnError.FAIL_OPEN);
    assertThat(api.tierQuotas()).containsOnlyKeys("gold", "free");
    assertThat(api.tierQuotas().get("gold").limit()).isEqualTo(1000);
    assertThat(api.tierQuotas().get("free").limit()).isEqualTo(10);
    assertThat(api.tierQuotas().get("free").windowMicros()).isEqualTo(10_000_000L);
    assertThat(CoreAccess.matches(api, "GET", "/api")).isTrue();
    assertThat(CoreAccess.matches(api, "POST", "/v2/7/items")).isTrue();
    assertThat(CoreAccess.matches(api, "DELETE", "/api/x")).isFalse();
    assertThat(CoreAccess.matches(api, "GET", "/v2/items")).isFalse();

    Rule search = rules.rules().get(2);
    assertThat(search.algorithm()).isEqualTo(Algorithm.TOKEN_BUCKET);
    assertThat(search.quota().burst()).as("burst defaults to the limit").isEqualTo(20);
    assertThat(search.tierQuotas().get("gold").burst()).isEqualTo(200);
    assertThat(search.key()).hasToString("header:X-Tenant");
    assertThat(search.quota().windowMicros()).isEqualTo(60_000_000L);

    Rule everything = rules.rules().get(3);
    assertThat(everything.algorithm()).isEqualTo(Algorithm.SLIDING_WINDOW);
    assertThat(everything.quota().windowMicros()).isEqualTo(500_000L);
    assertThat(everything.key()).hasToString("global");
    assertThat(everything.shadow()).isFalse();
    assertThat(CoreAccess.matches(everything, "PATCH", "/")).isTrue();
  }

  @Test
  void fullConfigTiersComeFromApiKeysAndTheTrustedHeader() {
    Rules rules = parse(FULL).rules();
    TestRequest client = TestRequest.get("/").from("203.0.113.7");
    assertThat(CoreAccess.tierOf(rules, client.header("X-Key", "k-gold-2"))).isEqualTo("gold");
    assertThat(
            CoreAccess.tierOf(
                rules, TestRequest.get("/").from("203.0.113.7").header("X-Key", "k-free")))
        .isEqualTo("free");
    assertThat(
            CoreAccess.tierOf(rules, TestRequest.get("/").from("10.0.0.1").header("X-Plan", "pro")))
        .isEqualTo("pro");
    assertThat(
            CoreAccess.tierOf(
                rules, TestRequest.get("/").from("203.0.113.7").header("X-Plan", "pro")))
        .isNull();
  }

  @Test
  void minimalConfigTakesTheDefaults() {
    Config config =
        parse(
            """
            rules:
              - id: a
                match: { path: /a }
                key: ip
                limit: 1
                window: 1s
            """);
    Rule rule = config.rules().rules().get(0);
    assertThat(config.store()).isEqualTo(StoreSettings.DEFAULT);
    assertThat(config.store().maxKeys()).isEqualTo(MemoryStore.DEFAULT_MAX_KEYS);
    assertThat(config.rules().apiKeyHeader()).isEqualTo("X-API-Key");
    assertThat(config.rules().excludes()).isEmpty();
    assertThat(config.rules().clientIp().trustedProxies()).isEmpty();
    assertThat(rule.algorithm()).isEqualTo(Algorithm.SLIDING_WINDOW);
    assertThat(rule.onError()).isEqualTo(OnError.FAIL_OPEN);
    assertThat(rule.shadow()).isFalse();
    assertThat(rule.cost()).isEqualTo(1);
    assertThat(CoreAccess.matches(rule, "DELETE", "/a")).isTrue();
  }

  @Test
  void emptyRuleListLimitsNothing() {
    assertThat(parse("rules: []\n").rules().rules()).isEmpty();
    assertThat(parse("exclude: /health\n").rules().rules()).isEmpty();
  }

  @Test
  void unknownTopLevelFieldIsReportedAtItsName() {
    ConfigError error =
        onlyError(
            """
            rules: []
            rule:
              - id: a
            """);
    assertThat(error.line()).isEqualTo(2);
    assertThat(error.column()).isEqualTo(1);
    assertThat(error.field()).isEqualTo("rule");
    assertThat(error.message())
        .isEqualTo(
            "unknown field, did you mean rules? (known here: enabled, store, fleet, rules_from,"
                + " defaults, client_ip, api_key_header, exclude, max_waiting, tiers, rules, cors,"
                + " response, metrics, admin, rollout)");
  }

  @Test
  void enabledIsTheKillSwitchAndMustBeABoolean() throws Exception {
    String rules = "rules: [{ id: a, match: { path: /a }, key: ip, limit: 1, window: 1s }]\n";
    assertThat(ConfigParser.parse("f.yaml", rules).enabled()).isTrue();
    assertThat(ConfigParser.parse("f.yaml", "enabled: true\n" + rules).enabled()).isTrue();
    Config off = ConfigParser.parse("f.yaml", "enabled: false\n" + rules);
    assertThat(off.enabled()).isFalse();
    assertThat(off.rules().rules()).as("still read and checked").hasSize(1);
    InvalidConfigException e =
        catchThrowableOfType(
            InvalidConfigException.class,
            () -> ConfigParser.parse("f.yaml", "enabled: nope\n" + rules));
    assertThat(e.getMessage()).isEqualTo("f.yaml:1:10: enabled: must be true or false");
  }

  @Test
  void unknownFieldsInSectionsAreReportedWithTheirPath() {
    assertThat(
            places(
                """
                store:
                  type: memory
                  size: 5
                client_ip:
                  trusted: [10.0.0.0/8]
                tiers:
                  headers: X-Plan
                defaults:
                  limit: 5
                  id: a
                rules: []
                """))
        .containsExactly(
            "3 store.size", "5 client_ip.trusted", "7 tiers.headers", "10 defaults.id");
  }

  @Test
  void redisStoreNeedsToKnowWhereRedisIs() {
    ConfigError error = onlyError("store:\n  type: redis\nrules: []\n");
    assertThat(error.line()).isEqualTo(2);
    assertThat(error.field()).isEqualTo("store.redis");
    assertThat(error.message()).contains("url: redis://host:6379");
  }

  @Test
  void unknownStoreTypeIsRejected() {
    ConfigError error = onlyError("store: { type: bogus }\n");
    assertThat(error.field()).isEqualTo("store.type");
    assertThat(error.message()).isEqualTo("must be memory or redis, got \"bogus\"");
  }

  @Test
  void storeMaxKeysMustBePositive() {
    assertThat(places("store:\n  max_keys: 0\n")).containsExactly("2 store.max_keys");
    assertThat(places("store: [memory]\n")).containsExactly("1 store");
  }

  @Test
  void badTrustedProxiesAreReportedItemByItem() {
    assertThat(
            places(
                """
                client_ip:
                  trusted_proxies:
                    - 10.0.0.0/8
                    - 300.0.0.0/8
                    - 10.0.0.0/33
                    - "[::1]"
                    - [10.0.0.0/8]
                """))
        .containsExactly(
            "4 client_ip.trusted_proxies[1]",
            "5 client_ip.trusted_proxies[2]",
            "6 client_ip.trusted_proxies[3]",
            "7 client_ip.trusted_proxies[4]");
    ConfigError single = onlyError("client_ip: { trusted_proxies: evil.com }\n");
    assertThat(single.field()).isEqualTo("client_ip.trusted_proxies");
    assertThat(single.message()).isEqualTo("'evil.com' is not an IP address or CIDR");
  }

  @Test
  void headerNamesMustBeTokens() {
    assertThat(
            places(
                """
                api_key_header: "X API"
                tiers:
                  header: "X-Plan:"
                """))
        .containsExactly("1 api_key_header", "3 tiers.header");
    assertThat(onlyError("api_key_header: ''\n").message())
        .isEqualTo("must be a header name, got \"\"");
    assertThat(parse("api_key_header: X-Api_Key.1\n").rules().apiKeyHeader())
        .isEqualTo("X-Api_Key.1");
  }

  @Test
  void apiKeysUnderARulesTiersPointToTheTopLevelTiers() {
    String yaml =
        """
        rules:
          - id: api
            match: { path: /api/** }
            key: api_key
            limit: 100
            window: 1m
            tiers: { sk-live-1: pro }
        """;
    assertThat(onlyError(yaml).message())
        .isEqualTo(
            "must be a whole number from 1 to 1000000000, got \"pro\"; a rule's tiers give each"
                + " tier its limit (tiers: { pro: 10000 }), while which API key has which tier"
                + " goes in the top-level tiers.api_keys (or tiers.header)");
  }

  @Test
  void anApiKeyBelongsToOneTierAndIsNeverEchoed() {
    String yaml =
        """
        tiers:
          api_keys:
            gold: [sk-live-1, sk-live-2]
            free:
              - sk-live-3
              - sk-live-1
            silver: [sk-live-3, ""]
            bronze: [sk-live-4, sk-live-4]
        """;
    assertThat(places(yaml))
        .containsExactly(
            "6 tiers.api_keys.free[1]",
            "7 tiers.api_keys.silver[0]",
            "7 tiers.api_keys.silver[1]",
            "8 tiers.api_keys.bronze[1]");
    assertThat(errors(yaml))
        .extracting(ConfigError::message)
        .containsExactly(
            "this API key is also in tier gold; a key has one tier",
            "this API key is also in tier free; a key has one tier",
            "an API key cannot be empty",
            "this API key appears twice in the tier")
        .noneMatch(message -> message.contains("sk-live"));
  }

  @Test
  void badExcludePatternsAreReportedItemByItem() {
    assertThat(places("exclude: [/ok, api, \"/a*b\"]\n"))
        .containsExactly("1 exclude[1]", "1 exclude[2]");
    assertThat(errors("exclude: /a/../b\n").get(0).message())
        .isEqualTo("\"/a/../b\": a path pattern may not contain '.', '..' or ';' segments");
  }

  @Test
  void rulesMustBeAList() {
    assertThat(places("rules:\n  id: a\n")).containsExactly("2 rules");
  }

  @Test
  void duplicateKeyInAMappingIsReportedAtTheSecond() {
    ConfigError error =
        onlyError(
            """
            rules: []
            exclude: /a
            rules: []
            """);
    assertThat(error.line()).isEqualTo(3);
    assertThat(error.field()).isEqualTo("rules");
    assertThat(error.message()).isEqualTo("appears twice");
  }

  @Test
  void badIndentationIsAYamlErrorWithItsLine() {
    ConfigError error =
        onlyError(
            """
            rules:
              - id: a
                match: { path: /a }
                 limit: 5
            """);
    assertThat(error.line()).isEqualTo(4);
    assertThat(error.field()).isEmpty();
    assertThat(error.message()).startsWith("not valid YAML: ");
  }

  @Test
  void lessIndentedFieldIsAYamlErrorWithItsLine() {
    ConfigError error =
        onlyError(
            """
            store:
                type: memory
              max_keys: 5
            """);
    assertThat(error.line()).isEqualTo(3);
    assertThat(error.message()).startsWith("not valid YAML: ");
  }

  @Test
  void anUnquotedIpv6AddressInAFlowListGetsAHint() {
    ConfigError error =
        onlyError(
            """
            client_ip:
              trusted_proxies: [127.0.0.1/32, ::1/128]
            rules: []
            """);
    assertThat(error.line()).isEqualTo(2);
    assertThat(error.message()).contains("quote values that start with ':'");
  }

  @Test
  void unclosedBracketIsAYamlErrorWithItsLine() {
    ConfigError error =
        onlyError(
            """
            exclude: [/a, /b
            rules: []
            """);
    assertThat(error.line()).isEqualTo(2);
    assertThat(error.message()).startsWith("not valid YAML: ");
  }

  @Test
  void tabIndentationIsAYamlErrorWithItsLine() {
    ConfigError error = onlyError("rules:\n\t- id: a\n");
    assertThat(error.line()).isEqualTo(2);
    assertThat(error.column()).isEqualTo(1);
    assertThat(error.toString()).startsWith("ratelimit.yaml:2:1: not valid YAML: ");
  }

  @Test
  void emptyFilesAreRejectedWithAHint() {
    for (String empty : new String[] {"", "\n\n", "# only a comment\n", "---\n", "~\n"}) {
      ConfigError error = onlyError(empty);
      assertThat(error.line()).as(empty).isZero();
      assertThat(error.toString())
          .as(empty)
          .isEqualTo("ratelimit.yaml: the file is empty; write `rules: []` to limit nothing");
    }
  }

  @Test
  void multiDocumentFileIsRejectedAtTheSecondDocument() {
    ConfigError error =
        onlyError(
            """
            rules: []
            ---
            rules: []
            """);
    assertThat(error.line()).isEqualTo(2);
    assertThat(error.message())
        .isEqualTo(
            "not valid YAML: expected a single document in the stream at line 1,"
                + " but found another document");
  }

  @Test
  void indentationMistakesNameTheLineToFix() {
    ConfigError lessIndented = onlyError("rules:\n  - id: a\n    limit: 5\n  window: 1m\n");
    assertThat(lessIndented.line()).isEqualTo(4);
    assertThat(lessIndented.message())
        .isEqualTo(
            "not valid YAML: while parsing a block collection at line 2, expected <block end>,"
                + " but found '?' (check the indentation of line 4: it must line up with the"
                + " fields above it at its level, such as the other fields of the same rule,"
                + " using spaces only)");
    ConfigError moreIndented = onlyError("rules:\n  - id: a\n    limit: 5\n     window: 1m\n");
    assertThat(moreIndented.message())
        .isEqualTo(
            "not valid YAML: mapping values are not allowed here (line 4 is indented further"
                + " than the field before it, or it has a value containing \": \" that needs"
                + " quotes)");
    assertThat(onlyError("rules:\n- id: a\n  limit 5\n  window: 1m\n").message())
        .endsWith(
            "could not find expected ':' (line 3 needs a ':' after its field name, or a line"
                + " after it is indented wrongly)");
  }

  @Test
  void fileMustBeAMapping() {
    ConfigError error = onlyError("- id: a\n");
    assertThat(error.toString()).isEqualTo("ratelimit.yaml:1:1: must be a mapping of fields");
  }

  @Test
  void everyProblemOfAFileIsReportedAtOnceInFileOrder() {
    String yaml =
        """
        store:
          type: bogus
        client_ip:
          trusted_proxies:
            - 10.0.0.0/8
            - 10.0.0.0/33
        api_key_header: "X API"
        rules:
          - id: a
            match: { path: /a }
            key: ip
            limit: abc
            window: 1m
          - id: a
            match: { path: /b }
            key: ip
            limit: 5
            window: 5x
            colour: red
        """;
    assertThat(places(yaml))
        .containsExactly(
            "2 store.type",
            "6 client_ip.trusted_proxies[1]",
            "7 api_key_header",
            "12 rules[0] (a).limit",
            "14 rules[1] (a).id",
            "18 rules[1] (a).window",
            "19 rules[1] (a).colour");
    assertThat(errors(yaml).get(3))
        .hasToString(
            "ratelimit.yaml:12:12: rules[0] (a).limit: must be a whole number from 1 to 1000000000,"
                + " got \"abc\"");
  }

  @Test
  void exceptionMessageListsEveryErrorOnItsOwnLine() {
    InvalidConfigException e =
        catchThrowableOfType(
            InvalidConfigException.class,
            () -> ConfigParser.parse("f.yaml", "store: { type: x }\nbogus: 1\n"));
    assertThat(e.getMessage())
        .isEqualTo(
            "f.yaml:1:16: store.type: must be memory or redis, got \"x\"\n"
                + "f.yaml:2:1: bogus: unknown field (known here: enabled, store, fleet,"
                + " rules_from, defaults, client_ip, api_key_header, exclude, max_waiting, tiers,"
                + " rules, cors, response, metrics, admin, rollout)");
  }

  @Test
  void controlShowsTheCanaryWouldBeTouchedByAConstructingLoader() {
    // Proves the canary can fail: a loader that does construct tagged classes touches it.
    LoaderOptions options = new LoaderOptions();
    options.setTagInspector(tag -> true);
    Object loaded = new Yaml(new Constructor(options)).load(CANARY_TAG + " {}\n");
    assertThat(loaded).isInstanceOf(Canary.class);
    assertThat(CANARY_TOUCHED.getAndSet(false)).isTrue();
  }

  @Test
  void classTagsAreRejectedWithoutConstructingAnything() {
    String yaml =
        """
        rules:
          - %s
            id: a
            match: { path: /a }
            key: ip
            limit: !!dev.sluice.config.ConfigParserTest$Canary 5
            window: 1m
        """
            .formatted(CANARY_TAG);
    synchronized (CANARY_TOUCHED) {
      CANARY_TOUCHED.set(false);
      ConfigError error = onlyError(yaml);
      assertThat(error.line()).isEqualTo(2);
      assertThat(error.message())
          .isEqualTo(
              "not valid YAML: Global tag is not allowed: "
                  + "tag:yaml.org,2002:dev.sluice.config.ConfigParserTest$Canary");
      assertThat(CANARY_TOUCHED.get()).isFalse();
    }
  }

  @Test
  void localTagsAreIgnored() {
    assertThat(parse("!canary\nrules: !canary []\n").rules().rules()).isEmpty();
  }

  @Test
  void scriptEngineGadgetIsRejected() {
    ConfigError error =
        onlyError(
            """
            rules: !!javax.script.ScriptEngineManager [!!java.net.URLClassLoader \
            [[!!java.net.URL ["http://127.0.0.1:1/x.jar"]]]]
            """);
    assertThat(error.line()).isEqualTo(1);
    assertThat(error.message()).contains("Global tag is not allowed");
  }

  @Test
  void billionLaughsIsRejected() {
    StringBuilder yaml = new StringBuilder("a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
    for (char c = 'b'; c <= 'j'; c++) {
      char previous = (char) (c - 1);
      yaml.append(c).append(": &").append(c).append(" [");
      for (int i = 0; i < 9; i++) {
        yaml.append(i == 0 ? "" : ", ").append('*').append(previous);
      }
      yaml.append("]\n");
    }
    yaml.append("rules: *j\n");
    ConfigError error = onlyError(yaml.toString());
    assertThat(error.message()).startsWith("not valid YAML: ").contains("aliases");
  }

  @Test
  void recursiveAliasesDoNotRecurse() {
    assertThat(places("rules: &r [*r]\n")).containsExactly("1 rules[0]");
    assertThat(places("defaults: &d { tiers: *d }\n")).containsExactly("1 defaults.tiers.tiers");
  }

  @Test
  void deepNestingIsRejected() {
    String yaml = "rules: " + "[".repeat(200) + "]".repeat(200) + "\n";
    assertThat(onlyError(yaml).message()).startsWith("not valid YAML: ");
  }

  @Test
  void hugeFileIsRejected() {
    String yaml = "rules: []\n# " + "x".repeat(2_000_000) + "\n";
    assertThat(onlyError(yaml).message())
        .isEqualTo("the file has 2000013 characters; the most Sluice reads is 1048576");
  }

  @Test
  void theSampleFileLoadsWithoutWarningsAndTrustsNoProxy() throws Exception {
    Path sample = Paths.get("..", "ratelimit.yaml");
    Config config =
        ConfigParser.parse(
            FILE,
            Files.readString(sample),
            Map.of("SLUICE_ADMIN_TOKEN", "sample-token-0123456789"));
    assertThat(config.warnings()).isEmpty();
    assertThat(config.rules().clientIp().trustedProxies()).isEmpty();
    TestRequest local = TestRequest.get("/").from("127.0.0.1").header("X-Forwarded-For", "6.6.6.6");
    assertThat(config.rules().clientIp().resolve(local))
        .as("a local process cannot make up a client")
        .isEqualTo("127.0.0.1");
    assertThat(config.admin()).hasToString("/_sluice for [127.0.0.1/32, ::1/128] with a token");
  }

  @Test
  void theSampleFileTakesTheAdminTokenFromTheEnvironmentOnly() throws Exception {
    String sample = Files.readString(Paths.get("..", "ratelimit.yaml"));
    Config unset = ConfigParser.parse(FILE, sample, Map.<String, String>of());
    List<String> lines = sample.lines().toList();
    int line =
        1
            + lines.indexOf(
                lines.stream().filter(l -> l.startsWith("  token: ")).findFirst().orElseThrow());
    assertThat(unset.admin()).as("no token, no endpoint").isNull();
    assertThat(unset.rules().rules()).as("the rules hold all the same").isNotEmpty();
    assertThat(unset.warnings())
        .singleElement()
        .asString()
        .startsWith(
            FILE
                + ":"
                + line
                + ":10: admin.token: names the environment variable SLUICE_ADMIN_TOKEN, which is"
                + " not set: the admin endpoint is off until it is");
    Config set =
        ConfigParser.parse(FILE, sample, Map.of("SLUICE_ADMIN_TOKEN", "a-token-of-24-characters"));
    assertThat(set.admin()).hasToString("/_sluice for [127.0.0.1/32, ::1/128] with a token");
  }

  @Test
  void clientIpNamesTheProxiesHeaderAndTheIpv6Prefix() {
    Config config =
        parse(
            """
            client_ip:
              trusted_proxies: [10.0.0.0/8]
              header: Forwarded
              ipv6_prefix: 48
            rules: []
            """);
    dev.sluice.core.TestRequest request =
        dev.sluice.core.TestRequest.get("/")
            .from("10.0.0.1")
            .header("X-Forwarded-For", "6.6.6.7")
            .header("Forwarded", "for=\"[2001:db8:1:2::1]\"");
    assertThat(config.rules().clientIp().resolve(request)).isEqualTo("2001:db8:1::/48");
    assertThat(
            places(
                """
                client_ip:
                  header: X-Real-IP
                  ipv6_prefix: 129
                rules: []
                """))
        .containsExactly("2 client_ip.header", "3 client_ip.ipv6_prefix");
  }
}
