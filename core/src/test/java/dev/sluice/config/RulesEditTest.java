package dev.sluice.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.admin.RulesWrite;
import java.lang.reflect.Constructor;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** One rule added, replaced or deleted, and everything else of the document left as it was. */
class RulesEditTest {
  private static final String DOC =
      "# fleet rules\n"
          + "api_key_header: X-Api-Key  # clients send it\n"
          + "# logins first\n"
          + "rules:\n"
          + "  - { id: login, match: { path: /login, methods: [POST] }, key: ip, limit: 5, window:"
          + " 1m }\n"
          + "  - id: api\n"
          + "    match: { path: \"/api/**\" }\n"
          + "    key: ip\n"
          + "    limit: 100\n"
          + "    window: 1m\n";

  static RulesWrite write(RulesWrite.Kind kind, String id, String body) throws Exception {
    return write(kind, id, body, "\"v1\"");
  }

  /** A write of {@code kind} by deploy, based on the version {@code ifMatch} names. */
  static RulesWrite write(RulesWrite.Kind kind, String id, String body, String ifMatch)
      throws Exception {
    Constructor<RulesWrite> make =
        RulesWrite.class.getDeclaredConstructor(
            RulesWrite.Kind.class,
            String.class,
            byte[].class,
            String.class,
            String.class,
            String.class,
            String.class);
    make.setAccessible(true);
    return make.newInstance(
        kind, id, body.getBytes(StandardCharsets.UTF_8), ifMatch, "deploy", "10.0.0.1", "");
  }

  private static String apply(RulesWrite.Kind kind, String id, String body) throws Exception {
    byte[] out = RulesEdit.apply(DOC.getBytes(StandardCharsets.UTF_8), write(kind, id, body));
    return new String(out, StandardCharsets.UTF_8);
  }

  private static Config parse(String yaml) throws Exception {
    return ConfigParser.parse("edited", yaml);
  }

  @Test
  void addingARuleKeepsTheRestCommentsIncluded() throws Exception {
    String edited =
        apply(
            RulesWrite.Kind.ADD,
            null,
            "{\"id\": \"search\", \"match\": {\"path\": \"/search\"}, \"key\": \"ip\","
                + " \"limit\": 3, \"window\": \"1s\", \"algorithm\": \"token_bucket\"}");
    assertThat(edited).contains("# fleet rules", "# clients send it", "# logins first");
    Config config = parse(edited);
    assertThat(config.rules().rules())
        .extracting(r -> r.id())
        .containsExactly("login", "api", "search");
    assertThat(RulesDiff.between(parse(DOC).rules().rules(), config.rules().rules()).toString())
        .isEqualTo("added search (3/1s)");
  }

  @Test
  void replacingARuleTakesItsIdFromThePath() throws Exception {
    String edited =
        apply(
            RulesWrite.Kind.UPDATE,
            "login",
            "match: { path: /login }\nkey: ip\nlimit: 10\nwindow: 1m\n");
    assertThat(
            RulesDiff.between(parse(DOC).rules().rules(), parse(edited).rules().rules()).toString())
        .isEqualTo("changed login (methods [POST]->all, limit 5->10)");
    assertThat(edited).contains("# logins first", "id: api");
  }

  @Test
  void deletingARuleLeavesTheOthers() throws Exception {
    String edited = apply(RulesWrite.Kind.DELETE, "api", "");
    assertThat(parse(edited).rules().rules()).extracting(r -> r.id()).containsExactly("login");
    assertThat(edited).contains("# clients send it");
  }

  @Test
  void unknownIdsBadBodiesAndDisagreeingIdsAreRefused() {
    assertThatThrownBy(() -> apply(RulesWrite.Kind.DELETE, "nope", ""))
        .isInstanceOf(RulesEdit.Refused.class)
        .hasMessage("no rule has the id nope")
        .extracting(e -> ((RulesEdit.Refused) e).status)
        .isEqualTo(404);
    assertThatThrownBy(() -> apply(RulesWrite.Kind.ADD, null, "[1, 2]"))
        .hasMessage("the body must be one rule: a mapping of its fields");
    assertThatThrownBy(() -> apply(RulesWrite.Kind.ADD, null, "{ id: [ }"))
        .hasMessageStartingWith("the body is not YAML (or JSON): ");
    assertThatThrownBy(() -> apply(RulesWrite.Kind.UPDATE, "login", "{ id: api, limit: 1 }"))
        .hasMessage("the body's id, api, is not the path's, login; they must agree");
  }

  /** SnakeYAML writes a comment before a flow mapping in a block list back as broken YAML. */
  @Test
  void commentsSnakeYamlCannotWriteBackAreLeftOut() throws Exception {
    String doc = DOC.replace("rules:\n", "rules:\n  # logins\n");
    String edited =
        new String(
            RulesEdit.apply(
                doc.getBytes(StandardCharsets.UTF_8), write(RulesWrite.Kind.DELETE, "api", "")),
            StandardCharsets.UTF_8);
    assertThat(parse(edited).rules().rules()).extracting(r -> r.id()).containsExactly("login");
    assertThat(edited).doesNotContain("#");
  }

  @Test
  void aDocumentWithoutRulesGetsAList() throws Exception {
    byte[] out =
        RulesEdit.apply(
            "enabled: true\n".getBytes(StandardCharsets.UTF_8),
            write(
                RulesWrite.Kind.ADD,
                null,
                "{ id: a, match: { path: /a }, key: ip, limit: 1, window: 1s }"));
    assertThat(parse(new String(out, StandardCharsets.UTF_8)).rules().rules()).hasSize(1);
  }

  /**
   * Issue 28: a rule replaced through the API came back in flow style, its quotes the body's, and
   * the list's items moved to the key's column.
   */
  @Test
  void aReplacedRuleIsWrittenAsTheOneItReplacesInTheDocumentsIndentation() throws Exception {
    String edited =
        apply(
            RulesWrite.Kind.UPDATE,
            "api",
            "{\"id\": \"api\", \"match\": {\"path\": \"/api/**\"}, \"key\": \"ip\","
                + " \"limit\": 50, \"window\": \"1m\"}");
    assertThat(edited)
        .contains(
            "rules:\n"
                + "  - {id: login, match: {path: /login, methods: [POST]}, key: ip, limit: 5,"
                + " window: 1m}\n"
                + "  - id: api\n"
                + "    match: {path: \"/api/**\"}\n"
                + "    key: ip\n"
                + "    limit: 50\n"
                + "    window: 1m\n");
    String added =
        apply(
            RulesWrite.Kind.ADD,
            null,
            "{\"id\": \"s\", \"match\": {\"path\": \"/s\"}, \"key\": \"ip\", \"limit\": \"7\","
                + " \"window\": \"1s\"}");
    assertThat(added)
        .as("like the rule before it, its path quoted too; \"7\" stays quoted, a string")
        .endsWith(
            "  - id: s\n"
                + "    match: {path: \"/s\"}\n"
                + "    key: ip\n"
                + "    limit: \"7\"\n"
                + "    window: 1s\n");
  }

  /**
   * Issue 28: SnakeYAML's comment handling throws on some valid documents (a comment right after
   * the [ of a flow list); such a document was refused (400, or 503 for a ClassCastException).
   */
  @Test
  void aDocumentWhoseCommentsSnakeYamlCannotReadIsEditedWithoutThem() throws Exception {
    for (String doc :
        new String[] {
          "rules: [ # the list\n  { id: a, match: { path: /a }, key: ip, limit: 1, window: 1s } ]\n",
          "rules:\n  - id: a\n    match: { # where\n      path: /a }\n    key: ip\n    limit: 1\n"
              + "    window: 1s\n"
        }) {
      byte[] out =
          RulesEdit.apply(
              doc.getBytes(StandardCharsets.UTF_8),
              write(
                  RulesWrite.Kind.ADD,
                  null,
                  "{ id: b, match: { path: /b }, key: ip, limit: 1, window: 1s }"));
      assertThat(parse(new String(out, StandardCharsets.UTF_8)).rules().rules())
          .extracting(r -> r.id())
          .containsExactly("a", "b");
    }
  }
}
