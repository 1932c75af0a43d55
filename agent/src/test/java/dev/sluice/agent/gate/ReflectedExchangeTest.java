package dev.sluice.agent.gate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.agent.gate.FakeServlet.Namespace;
import dev.sluice.agent.gate.FakeServlet.Request;
import dev.sluice.agent.gate.FakeServlet.Response;
import dev.sluice.http.Exchange;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class ReflectedExchangeTest {
  private static Exchange exchange(Request request, Response response) {
    Object proxy = request.proxy();
    return new ReflectedExchange(ServletApi.of(proxy.getClass()), proxy, response.proxy());
  }

  @ParameterizedTest
  @EnumSource(Namespace.class)
  void readsTheRequestThroughTheServletApi(Namespace namespace) {
    Request request = new Request(namespace);
    request.path = "/api/items";
    request.remoteAddress = "198.51.100.4";
    request.query = "path=%2Flogin&ip=1.2.3.4";
    request.headers.put("X-Tenant", List.of("acme", "other"));
    Exchange exchange = exchange(request, new Response(namespace));
    assertThat(exchange.method()).isEqualTo("GET");
    assertThat(exchange.path()).isEqualTo("/api/items");
    assertThat(exchange.queryString()).isEqualTo("path=%2Flogin&ip=1.2.3.4");
    assertThat(exchange.remoteAddress()).isEqualTo("198.51.100.4");
    assertThat(exchange.remoteUser()).isNull();
    assertThat(exchange.header("X-Tenant")).isEqualTo("acme");
    assertThat(exchange.headers("X-Tenant")).containsExactly("acme", "other");
    assertThat(exchange.header("X-Absent")).isNull();
    assertThat(exchange.headers("X-Absent")).isEmpty();
  }

  @ParameterizedTest
  @EnumSource(Namespace.class)
  void marksARequestDecidedOnlyOnce(Namespace namespace) {
    Request request = new Request(namespace);
    Exchange exchange = exchange(request, new Response(namespace));
    assertThat(exchange.markDecided(Exchange.DECIDED_ATTRIBUTE)).isTrue();
    assertThat(request.attributes).containsEntry(Exchange.DECIDED_ATTRIBUTE, Boolean.TRUE);
    assertThat(exchange.markDecided(Exchange.DECIDED_ATTRIBUTE)).isFalse();
    Exchange again = exchange(request, new Response(namespace));
    assertThat(again.markDecided(Exchange.DECIDED_ATTRIBUTE)).isFalse();
  }

  @ParameterizedTest
  @EnumSource(Namespace.class)
  void readsTheContainersMarkOfARewrittenAddress(Namespace namespace) {
    Request request = new Request(namespace);
    assertThat(exchange(request, new Response(namespace)).forwarded()).isFalse();
    request.attributes.put(Exchange.TOMCAT_FORWARDED_ATTRIBUTE, Boolean.TRUE);
    assertThat(exchange(request, new Response(namespace)).forwarded()).isTrue();
  }

  @ParameterizedTest
  @EnumSource(Namespace.class)
  void clearsAnUncommittedResponseForTheRejection(Namespace namespace) {
    Response response = new Response(namespace);
    response.headers.put("X-App", "stale");
    response.status = 201;
    assertThat(exchange(new Request(namespace), response).clearForResponse()).isTrue();
    assertThat(response.calls).containsExactly("reset");
    assertThat(response.headers).isEmpty();
    assertThat(response.status).isEqualTo(200);
  }

  @ParameterizedTest
  @EnumSource(Namespace.class)
  void leavesACommittedResponseUntouched(Namespace namespace) {
    Response response = new Response(namespace);
    response.committed = true;
    assertThat(exchange(new Request(namespace), response).clearForResponse()).isFalse();
    assertThat(response.calls).isEmpty();
  }

  @ParameterizedTest
  @EnumSource(Namespace.class)
  void writesTheRejectionAsUtf8WithItsLengthInBytes(Namespace namespace) throws IOException {
    Response response = new Response(namespace);
    exchange(new Request(namespace), response).respond(429, "application/json", "{\"a\":\"é\"}");
    assertThat(response.calls)
        .containsExactly(
            "setStatus 429",
            "setContentType application/json",
            "setCharacterEncoding UTF-8",
            "setContentLength 10",
            "getWriter");
    assertThat(response.status).isEqualTo(429);
    assertThat(response.contentType).isEqualTo("application/json");
    assertThat(response.contentLength).as("é is two bytes").isEqualTo(10);
    assertThat(response.body).hasToString("{\"a\":\"é\"}");
  }

  @ParameterizedTest
  @EnumSource(Namespace.class)
  void aServletCallThatThrowsReachesTheCallerUnchanged(Namespace namespace) {
    Request request = new Request(namespace);
    request.failing.add("getHeader");
    Exchange exchange = exchange(request, new Response(namespace));
    assertThatThrownBy(() -> exchange.header("X-Tenant"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("getHeader failed on purpose");
  }

  @ParameterizedTest
  @EnumSource(Namespace.class)
  void aWriterThatCannotOpenIsAnIoException(Namespace namespace) {
    Response response = new Response(namespace);
    response.failing.add("getWriter");
    Exchange exchange = exchange(new Request(namespace), response);
    assertThatThrownBy(() -> exchange.respond(429, "application/json", "{}"))
        .isInstanceOf(IOException.class)
        .hasMessage("getWriter failed on purpose");
  }
}
