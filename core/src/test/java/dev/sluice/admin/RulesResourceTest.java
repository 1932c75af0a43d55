package dev.sluice.admin;

import static dev.sluice.config.ConfigSource.MAX_BYTES;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.Cidr;
import dev.sluice.core.TestRequest;
import dev.sluice.http.FakeExchange;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The HTTP of {@code /rules} over a {@link Rulebook} that records what it is asked: who may read
 * and write, what a write must carry, and that a refused write is no answer at all.
 */
class RulesResourceTest {
  private static final String READ = AdminTesting.TOKEN;
  private static final String DEPLOY = "deploy-token-0123456789";

  private final List<RulesWrite> writes = new ArrayList<>();
  private final AdminTesting t = new AdminTesting("rules: []\n");
  private final AdminEndpoint admin =
      new AdminEndpoint(
          t.limiter,
          t.metrics,
          t.clock,
          new Rulebook() {
            @Override
            public Reply read() {
              return Reply.of(200, "application/yaml", "rules: []\n", "\"v3\"");
            }

            @Override
            public Reply write(RulesWrite write) {
              writes.add(write);
              return Reply.of(200, "application/json", "{}", "\"v4\"");
            }
          });

  RulesResourceTest() {
    admin.configure(
        new AdminSettings(
            "/_sluice",
            List.of(Cidr.parse("127.0.0.0/8")),
            READ,
            new WriteCredentials(Map.of("deploy", DEPLOY)),
            t.limiter.rules().clientIp()));
  }

  private static FakeExchange request(String method, String path, String token, String... headers) {
    TestRequest request =
        new TestRequest(method, path).from("127.0.0.1").header("Host", "localhost:8080");
    if (token != null) {
      request.header("Authorization", "Bearer " + token);
    }
    for (int i = 0; i < headers.length; i += 2) {
      request.header(headers[i], headers[i + 1]);
    }
    return new FakeExchange(request, "message=raise+login");
  }

  @Test
  void theReadTokenAndAWriteCredentialReadTheRulesWithTheirVersion() throws Exception {
    for (String token : new String[] {READ, DEPLOY}) {
      FakeExchange get = request("GET", "/_sluice/rules", token);
      assertThat(admin.answered(get)).isTrue();
      assertThat(get.status).isEqualTo(200);
      assertThat(get.body).isEqualTo("rules: []\n");
      assertThat(get.headers)
          .containsEntry("ETag", "\"v3\"")
          .containsEntry("Cache-Control", "no-store");
    }
    assertThat(admin.answered(request("GET", "/_sluice/rules", null))).isFalse();
  }

  @Test
  void aWriteWithoutAWriteCredentialIsNoAnswerAtAll() throws Exception {
    for (String token : new String[] {null, READ, "deploy-token-012345678", DEPLOY + "x"}) {
      for (String method : new String[] {"PUT", "POST"}) {
        FakeExchange write = request(method, "/_sluice/rules", token, "If-Match", "\"v3\"");
        write.requestBody = "rules: []\n".getBytes(StandardCharsets.UTF_8);
        assertThat(admin.answered(write)).as(method + " with " + token).isFalse();
      }
      assertThat(admin.answered(request("DELETE", "/_sluice/rules/a", token, "If-Match", "\"v3\"")))
          .isFalse();
    }
    assertThat(writes).isEmpty();
  }

  @Test
  void writesOffWhenNoCredentialIsSet() throws Exception {
    admin.configure(
        new AdminSettings(
            "/_sluice", List.of(Cidr.parse("127.0.0.0/8")), READ, t.limiter.rules().clientIp()));
    assertThat(admin.answered(request("PUT", "/_sluice/rules", DEPLOY, "If-Match", "\"v3\"")))
        .isFalse();
    assertThat(admin.answered(request("PUT", "/_sluice/rules", READ, "If-Match", "\"v3\"")))
        .isFalse();
  }

  @Test
  void eachVerbIsAWriteOfItsKindByTheCredentialsName() throws Exception {
    FakeExchange put = request("PUT", "/_sluice/rules", DEPLOY, "If-Match", " \"v3\" ");
    put.requestBody = "rules: []\n".getBytes(StandardCharsets.UTF_8);
    assertThat(admin.answered(put)).isTrue();
    assertThat(put.headers).containsEntry("ETag", "\"v4\"");
    FakeExchange post = request("POST", "/_sluice/rules", DEPLOY, "If-Match", "\"v4\"");
    post.requestBody = "{\n\t\"id\": \"a\\/b\"}".getBytes(StandardCharsets.UTF_8);
    assertThat(admin.answered(post)).isTrue();
    assertThat(admin.answered(request("PUT", "/_sluice/rules/login", DEPLOY, "If-Match", "\"v5\"")))
        .isTrue();
    assertThat(
            admin.answered(request("DELETE", "/_sluice/rules/login", DEPLOY, "If-Match", "\"v6\"")))
        .isTrue();
    assertThat(writes)
        .extracting(RulesWrite::kind, RulesWrite::id, RulesWrite::ifMatch, RulesWrite::who)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(RulesWrite.Kind.REPLACE, null, "\"v3\"", "deploy"),
            org.assertj.core.groups.Tuple.tuple(RulesWrite.Kind.ADD, null, "\"v4\"", "deploy"),
            org.assertj.core.groups.Tuple.tuple(
                RulesWrite.Kind.UPDATE, "login", "\"v5\"", "deploy"),
            org.assertj.core.groups.Tuple.tuple(
                RulesWrite.Kind.DELETE, "login", "\"v6\"", "deploy"));
    assertThat(writes.get(0).content()).asString(StandardCharsets.UTF_8).isEqualTo("rules: []\n");
    assertThat(writes.get(0).message()).isEqualTo("raise login");
    assertThat(writes.get(0).from()).isEqualTo("127.0.0.1");
    assertThat(writes.get(3).content()).isEmpty();
  }

  @Test
  void aJsonBodyIsReadAsYamlReadsIt() throws Exception {
    FakeExchange post =
        request(
            "POST",
            "/_sluice/rules",
            DEPLOY,
            "If-Match",
            "\"v4\"",
            "Content-Type",
            "application/json; charset=utf-8");
    post.requestBody = "{\n\t\"id\": \"a\\/b\\\\/\\t\"}".getBytes(StandardCharsets.UTF_8);
    assertThat(admin.answered(post)).isTrue();
    assertThat(writes.get(0).content())
        .asString(StandardCharsets.UTF_8)
        .isEqualTo("{\n \"id\": \"a/b\\\\/\\t\"}");
  }

  @Test
  void aWriteMustNameTheVersionItIsBasedOn() throws Exception {
    for (String[] ifMatch : new String[][] {{}, {"If-Match", "*"}}) {
      FakeExchange put = request("PUT", "/_sluice/rules", DEPLOY, ifMatch);
      assertThat(admin.answered(put)).isTrue();
      assertThat(put.status).isEqualTo(428);
      assertThat(put.contentType).isEqualTo("application/problem+json");
      assertThat(AdminTesting.json(put.body))
          .containsEntry("status", 428)
          .containsEntry("title", "Precondition Required");
    }
    assertThat(writes).isEmpty();
  }

  @Test
  void aBodyLargerThanAFileIsRefused() throws Exception {
    FakeExchange put = request("PUT", "/_sluice/rules", DEPLOY, "If-Match", "\"v3\"");
    assertThat(RulesResource.MAX_BODY).as("what Sluice reads of a file").isEqualTo(MAX_BYTES);
    put.requestBody = new byte[RulesResource.MAX_BODY + 1];
    assertThat(admin.answered(put)).isTrue();
    assertThat(put.status).isEqualTo(413);
    assertThat(writes).isEmpty();
  }

  @Test
  void otherMethodsAndPathsAreNamed() throws Exception {
    FakeExchange one = request("GET", "/_sluice/rules/login", READ);
    assertThat(admin.answered(one)).isTrue();
    assertThat(one.status).isEqualTo(405);
    assertThat(one.headers).containsEntry("Allow", "PUT, DELETE");
    FakeExchange post = request("POST", "/_sluice/rules/login", DEPLOY, "If-Match", "\"v3\"");
    assertThat(admin.answered(post)).isTrue();
    assertThat(post.status).isEqualTo(405);
    assertThat(admin.answered(request("GET", "/_sluice/rules/", READ))).isFalse();
    assertThat(admin.answered(request("GET", "/_sluice/rules/a/b", READ))).isFalse();
    assertThat(admin.answered(request("GET", "/_sluice/status/a", READ))).isFalse();
    assertThat(writes).isEmpty();
  }

  /** Issue 28: PATCH and OPTIONS with the read token were answered the document, 200. */
  @Test
  void aMethodTheResourceDoesNotServeIs405() throws Exception {
    for (String method : new String[] {"PATCH", "OPTIONS", "TRACE", "PROPFIND"}) {
      for (String token : new String[] {READ, DEPLOY}) {
        FakeExchange other = request(method, "/_sluice/rules", token, "If-Match", "\"v3\"");
        assertThat(admin.answered(other)).as(method).isTrue();
        assertThat(other.status).as(method).isEqualTo(405);
        assertThat(other.headers).containsEntry("Allow", "GET, HEAD, PUT, POST");
        assertThat(other.contentType).isEqualTo("application/problem+json");
      }
    }
    FakeExchange head = request("HEAD", "/_sluice/rules", READ);
    assertThat(admin.answered(head)).isTrue();
    assertThat(head.status).isEqualTo(200);
    assertThat(writes).isEmpty();
  }

  /** Issue 28: invalid UTF-8 was published as U+FFFD, a path that never matches. */
  @Test
  void aBodyIsReadInTheCharsetItDeclaresAndInvalidBytesAreRefused() throws Exception {
    byte[] invalid = {'r', 'u', 'l', 'e', 's', ':', ' ', '[', '/', (byte) 0xC3, (byte) 0x28, ']'};
    for (String type : new String[] {null, "application/yaml", "application/json; charset=UTF-8"}) {
      String[] headers =
          type == null
              ? new String[] {"If-Match", "\"v3\""}
              : new String[] {"If-Match", "\"v3\"", "Content-Type", type};
      FakeExchange put = request("PUT", "/_sluice/rules", DEPLOY, headers);
      put.requestBody = invalid;
      assertThat(admin.answered(put)).isTrue();
      assertThat(put.status).as(type).isEqualTo(400);
      assertThat(AdminTesting.json(put.body).get("detail").toString())
          .startsWith("the body is not valid UTF-8");
    }
    FakeExchange unknown =
        request(
            "PUT",
            "/_sluice/rules",
            DEPLOY,
            "If-Match",
            "\"v3\"",
            "Content-Type",
            "application/yaml; charset=x-nothing");
    assertThat(admin.answered(unknown)).isTrue();
    assertThat(unknown.status).isEqualTo(400);
    assertThat(writes).isEmpty();

    FakeExchange latin1 =
        request(
            "POST",
            "/_sluice/rules",
            DEPLOY,
            "If-Match",
            "\"v3\"",
            "Content-Type",
            "application/yaml; charset=\"ISO-8859-1\"");
    latin1.requestBody = "{ id: caf\u00e9 }".getBytes(StandardCharsets.ISO_8859_1);
    assertThat(admin.answered(latin1)).isTrue();
    assertThat(writes.get(0).content())
        .isEqualTo("{ id: caf\u00e9 }".getBytes(StandardCharsets.UTF_8));
  }

  /** Issue 28: the message was logged and recorded as sent, newlines and all. */
  @Test
  void theMessageLosesItsControlCharacters() throws Exception {
    TestRequest request =
        new TestRequest("DELETE", "/_sluice/rules/login")
            .from("127.0.0.1")
            .header("Host", "localhost:8080")
            .header("Authorization", "Bearer " + DEPLOY)
            .header("If-Match", "\"v3\"");
    FakeExchange delete =
        new FakeExchange(request, "message=fine%0ASluice:+forged%E2%80%AE%1B%5B31m+line");
    assertThat(admin.answered(delete)).isTrue();
    assertThat(writes.get(0).message()).isEqualTo("fineSluice: forged[31m line");
    assertThat(RulesWrite.printable("a\u2028b\rc\u0085d\te")).isEqualTo("abcde");
  }
}
