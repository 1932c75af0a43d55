package dev.sluice.it;

import static dev.sluice.it.Http.assertRejected;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.LogCapture;
import dev.sluice.config.RulesVersion;
import dev.sluice.it.jvm.ChildJvm;
import dev.sluice.it.publish.RulesFollower;
import dev.sluice.it.redis.RedisServer;
import dev.sluice.it.redis.RedisServers;
import dev.sluice.publish.Publish;
import dev.sluice.store.redis.PublishedRules;
import dev.sluice.store.redis.PublishedVersion;
import dev.sluice.store.redis.RedisSettings;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The rules API of the admin endpoint in a real Tomcat 11 with the Filter: on rules published in a
 * real Redis, each verb publishes a version that a second JVM following the same Redis puts in
 * force, which the history records with who and why and {@code rollback} undoes; a write without
 * the write credential is what any unknown path gets; a stale {@code If-Match} and invalid content
 * change nothing. On rules from a local file (a second Tomcat, memory store) a write gets 409.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class Tomcat11RulesApiIT {
  static final String WRITE = "it-deploy-token-0123456789";
  static final String OPERATOR = "10.9.0.1";
  private static final Duration SOON = Duration.ofSeconds(10);
  static final String ADMIN =
      "admin: { path: /_sluice, allow: [10.9.0.0/16], token: "
          + AdminChecks.TOKEN
          + ", write_token: { deploy: "
          + WRITE
          + " } }\n"
          + "client_ip: { trusted_proxies: [127.0.0.1/32, \"::1/128\"] }\n";
  static final String RULES =
      "rules:\n  - { id: api, match: { path: /api/** }, key: ip, limit: 100, window: 1h }\n";

  private final LogCapture configLog = LogCapture.of("dev.sluice.config");
  private final String prefix = "rulesapi" + Long.toString(System.currentTimeMillis(), 36);
  private final Tomcats tomcats = new Tomcats();
  private RedisServer redis;
  private ChildJvm follower;
  private Path followed;
  private Http published;
  private Http local;
  private WebApp localApp;

  /**
   * Redis's own timeout is 2 s: past the default 50 ms, on a loaded machine, a decision is made
   * locally (a fleet share of the limit) and the exact counts the test reads would not hold.
   */
  @BeforeAll
  void start() throws Exception {
    redis = RedisServers.standalone();
    String store =
        "rules_from: redis\nstore: { type: redis, key_prefix: "
            + prefix
            + ", redis: { url: "
            + redis.uri()
            + ", timeout: 2s } }\n";
    published = tomcats.deploy(store + ADMIN + RULES);
    local = tomcats.deploy(ADMIN + RULES);
    localApp = tomcats.app(1);
    followed = Files.createTempDirectory("sluice-follower").resolve("local.yaml");
    Files.writeString(followed, store + RULES);
    follower = ChildJvm.start("follower", RulesFollower.class, followed.toString());
    follower.awaitLine("rules ", Duration.ofSeconds(60));
  }

  @AfterAll
  void stop() throws Exception {
    try {
      configLog.close();
      if (follower != null) {
        follower.close();
      }
      tomcats.stop();
    } finally {
      tomcats.delete();
      if (followed != null) {
        WebApp.deleteTree(followed.getParent());
      }
      if (redis != null) {
        redis.close();
      }
    }
  }

  static HttpResponse<String> write(
      Http http, String method, String path, String ifMatch, String body, String... more)
      throws Exception {
    List<String> headers = new ArrayList<>(List.of("Authorization", "Bearer " + WRITE));
    if (ifMatch != null) {
      headers.addAll(List.of("If-Match", ifMatch));
    }
    headers.addAll(List.of(more));
    return http.sendBody(method, path, OPERATOR, body, headers.toArray(new String[0]));
  }

  static HttpResponse<String> read(Http http) throws Exception {
    return http.get("/_sluice/rules", OPERATOR, "Authorization", "Bearer " + AdminChecks.TOKEN);
  }

  static String etag(HttpResponse<String> response) {
    return response.headers().firstValue("ETag").orElseThrow();
  }

  /** Waits until the second JVM reports {@code content}'s rules version in force. */
  private void followerApplies(String content) throws Exception {
    String version = RulesVersion.of(content.getBytes(StandardCharsets.UTF_8));
    follower.awaitLine(line -> line.matches("rules \\d+ " + version + " ok"), version, SOON);
  }

  private PublishedRules history() {
    return PublishedRules.open(
        RedisSettings.standalone(URI.create(redis.uri()), 1_000, 1), prefix, 1_000);
  }

  @Test
  void eachVerbPublishesAVersionInForceHereAndInASecondJvmRecordedAndUndoable() throws Exception {
    HttpResponse<String> first = read(published);
    assertThat(first.statusCode()).isEqualTo(200);
    assertThat(first.headers().firstValue("Content-Type"))
        .hasValueSatisfying(type -> assertThat(type).startsWith("application/yaml"));
    String base = etag(first);

    String json =
        "{\n"
            + "\t\"rules\": [{\"id\": \"api\", \"match\": {\"path\": \"\\/api\\/**\"}, \"key\":"
            + " \"ip\", \"limit\": 2, \"window\": \"1h\"}]\n"
            + "}\n";
    HttpResponse<String> put =
        write(
            published,
            "PUT",
            "/_sluice/rules?message=api+down+to+2",
            base,
            json,
            "Content-Type",
            "application/json");
    assertThat(put.statusCode()).as(put.body()).isEqualTo(200);
    String v1 = etag(put);
    assertThat(put.body())
        .contains("\"published\":true", "changed api (limit 100-\\u003e2)", "\"warnings\":[]");
    HttpResponse<String> afterPut = read(published);
    assertThat(etag(afterPut)).as("in force here at once").isEqualTo(v1);
    followerApplies(afterPut.body());
    for (int i = 0; i < 2; i++) {
      HttpResponse<String> allowed = published.get("/api/hello", "10.7.0.1");
      assertThat(allowed.statusCode()).as(allowed.headers().map().toString()).isEqualTo(200);
    }
    HttpResponse<String> third = published.get("/api/hello", "10.7.0.1");
    assertThat(third.statusCode()).as(third.headers().map().toString()).isEqualTo(429);
    assertRejected(third, "api");

    HttpResponse<String> post =
        write(
            published,
            "POST",
            "/_sluice/rules?message=add+search",
            v1,
            "{ id: search, match: { path: /search }, key: ip, limit: 1, window: 1h,"
                + " algorithm: token_bucket }");
    assertThat(post.statusCode()).as(post.body()).isEqualTo(201);
    assertThat(post.body()).contains("added search (1/1h)");
    String v2 = etag(post);
    assertThat(configLog.messages())
        .anySatisfy(
            line ->
                assertThat(line)
                    .startsWith(
                        "Sluice: deploy (from 10.9.0.1) added a rule through the admin endpoint:"
                            + " published version ")
                    .contains(": add search; added search (1/1h); ")
                    .endsWith(" is unchanged: its rules are only the fallback under rules_from: redis"));
    followerApplies(read(published).body());
    assertThat(published.get("/search", "10.7.0.2").statusCode()).isEqualTo(200);
    assertRejected(published.get("/search", "10.7.0.2"), "search");

    HttpResponse<String> update =
        write(
            published,
            "PUT",
            "/_sluice/rules/search",
            v2,
            "{\"match\": {\"path\": \"/search\"}, \"key\": \"ip\", \"limit\": 50, \"window\":"
                + " \"1h\"}",
            "Content-Type",
            "application/json");
    assertThat(update.statusCode()).as(update.body()).isEqualTo(200);
    assertThat(update.body()).contains("changed search (", "limit 1-\\u003e50");
    String v3 = etag(update);
    followerApplies(read(published).body());

    HttpResponse<String> delete =
        write(published, "DELETE", "/_sluice/rules/search?message=not+needed", v3, null);
    assertThat(delete.statusCode()).as(delete.body()).isEqualTo(200);
    assertThat(delete.body()).contains("removed search");
    followerApplies(read(published).body());
    assertThat(published.get("/search", "10.7.0.2").statusCode())
        .as("no rule limits /search any more")
        .isEqualTo(200);

    try (PublishedRules rules = history()) {
      List<PublishedVersion> versions = rules.history(1 << 20);
      assertThat(versions).hasSizeGreaterThanOrEqualTo(4);
      assertThat(versions.subList(0, 4))
          .extracting(PublishedVersion::who, PublishedVersion::note)
          .containsExactly(
              org.assertj.core.groups.Tuple.tuple("deploy", "not needed"),
              org.assertj.core.groups.Tuple.tuple("deploy", ""),
              org.assertj.core.groups.Tuple.tuple("deploy", "add search"),
              org.assertj.core.groups.Tuple.tuple("deploy", "api down to 2"));
      assertThat(versions.get(0).where()).startsWith(OPERATOR + " via ");
      assertThat(rules.read(Long.parseLong(v1.replaceAll("[^0-9]", "")), 1 << 20).content())
          .asString(StandardCharsets.UTF_8)
          .as("a whole document is published as sent, but for JSON's tab and \\/")
          .isEqualTo(json.replace('\t', ' ').replace("\\/", "/"));
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int code =
        Publish.run(
            "sluice",
            "rollback",
            new String[] {
              v2.replaceAll("[^0-9]", ""), "--redis", redis.uri(), "--key-prefix", prefix
            },
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(out, true, StandardCharsets.UTF_8));
    assertThat(code).as(out.toString(StandardCharsets.UTF_8)).isZero();
    followerApplies(new String(rulesOf(v2), StandardCharsets.UTF_8));
  }

  private byte[] rulesOf(String etag) {
    try (PublishedRules rules = history()) {
      return rules.read(Long.parseLong(etag.replaceAll("[^0-9]", "")), 1 << 20).content();
    }
  }

  @Test
  void aStaleOrMissingIfMatchAndInvalidContentChangeNothing() throws Exception {
    HttpResponse<String> before = read(published);
    String current = etag(before);
    HttpResponse<String> stale =
        write(published, "PUT", "/_sluice/rules", "\"v999\"", RULES.replace("100", "7"));
    assertThat(stale.statusCode()).isEqualTo(412);
    assertThat(stale.headers().firstValue("Content-Type"))
        .hasValueSatisfying(type -> assertThat(type).startsWith("application/problem+json"));
    assertThat(etag(stale)).isEqualTo(current);
    assertThat(stale.body()).contains("\"status\":412", "If-Match does not name the current");

    assertThat(configLog.messages())
        .anySatisfy(
            line ->
                assertThat(line)
                    .startsWith(
                        "Sluice: deploy (from 10.9.0.1) replaced the whole document through the"
                            + " admin endpoint: refused, 412: If-Match does not name"));
    HttpResponse<String> missing = write(published, "PUT", "/_sluice/rules", null, RULES);
    assertThat(missing.statusCode()).isEqualTo(428);

    HttpResponse<String> invalid =
        write(
            published,
            "POST",
            "/_sluice/rules",
            current,
            "{ id: bad, match: { path: /bad }, key: ip, limit: 0, window: 1m }");
    assertThat(invalid.statusCode()).isEqualTo(400);
    assertThat(invalid.headers().firstValue("Content-Type"))
        .hasValueSatisfying(type -> assertThat(type).startsWith("application/problem+json"));
    assertThat(invalid.body())
        .contains("\"status\":400", "\"errors\":[{\"line\":", "\"field\":\"rules[")
        .contains("(bad).limit\",\"message\":\"must be a whole number");
    HttpResponse<String> unknown = write(published, "DELETE", "/_sluice/rules/nope", current, null);
    assertThat(unknown.statusCode()).isEqualTo(404);

    HttpResponse<String> after = read(published);
    assertThat(etag(after)).isEqualTo(current);
    assertThat(after.body()).isEqualTo(before.body());
  }

  @Test
  void aRefusedWriteLooksLikeAnUnknownPath() throws Exception {
    String current = etag(read(published));
    String[][] refusals = {
      {OPERATOR},
      {OPERATOR, "Authorization", "Bearer " + AdminChecks.TOKEN},
      {OPERATOR, "Authorization", "Bearer " + WRITE + "x"},
      {"10.8.0.1", "Authorization", "Bearer " + WRITE},
    };
    for (String[] refusal : refusals) {
      List<String> given = new ArrayList<>(List.of(refusal).subList(1, refusal.length));
      given.addAll(List.of("If-Match", current));
      String[] headers = given.toArray(new String[0]);
      for (String method : new String[] {"PUT", "POST"}) {
        HttpResponse<String> refused =
            published.sendBody(method, "/_sluice/rules", refusal[0], RULES, headers);
        HttpResponse<String> elsewhere =
            published.sendBody(method, "/_nowhere/rules", refusal[0], RULES, headers);
        assertThat(refused.statusCode())
            .as(method + " " + List.of(refusal))
            .isEqualTo(elsewhere.statusCode());
        assertThat(refused.body().replace("sluice", "nowhere")).isEqualTo(elsewhere.body());
        assertThat(refused.headers().firstValue("ETag")).isEmpty();
      }
    }
    assertThat(etag(read(published))).as("nothing published").isEqualTo(current);
  }

  @Test
  void rulesFromALocalFileAreReadButNeverWritten() throws Exception {
    String file = Files.readString(localApp.config());
    HttpResponse<String> get = read(local);
    assertThat(get.statusCode()).isEqualTo(200);
    assertThat(get.body())
        .as("without the sections that hold the JVM's credentials")
        .isEqualTo(RULES)
        .doesNotContain(WRITE, AdminChecks.TOKEN);
    assertThat(etag(get))
        .isEqualTo("\"" + RulesVersion.of(file.getBytes(StandardCharsets.UTF_8)) + "\"");
    HttpResponse<String> put = write(local, "PUT", "/_sluice/rules", etag(get), RULES);
    assertThat(put.statusCode()).isEqualTo(409);
    assertThat(put.headers().firstValue("Content-Type"))
        .hasValueSatisfying(type -> assertThat(type).startsWith("application/problem+json"));
    assertThat(put.body()).contains("never rewrites: edit that file", "rules_from: redis");
    assertThat(Files.readString(localApp.config())).isEqualTo(file);
  }
}
