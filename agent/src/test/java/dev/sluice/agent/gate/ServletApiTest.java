package dev.sluice.agent.gate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.agent.gate.FakeServlet.Namespace;
import dev.sluice.agent.gate.FakeServlet.Request;
import dev.sluice.agent.gate.FakeServlet.Response;
import java.lang.reflect.Proxy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

class ServletApiTest {
  @ParameterizedTest
  @EnumSource(Namespace.class)
  void anHttpRequestResolvesToItsOwnNamespace(Namespace namespace) {
    ServletApi api = ServletApi.of(new Request(namespace).proxy().getClass());
    assertThat(api).isNotNull();
    assertThat(api.requestType).isEqualTo(namespace.type("http.HttpServletRequest"));
    assertThat(api.responseType).isEqualTo(namespace.type("http.HttpServletResponse"));
  }

  @ParameterizedTest
  @EnumSource(Namespace.class)
  void theApiIsResolvedOncePerRequestClass(Namespace namespace) {
    Class<?> requestClass = new Request(namespace).proxy().getClass();
    assertThat(ServletApi.of(requestClass)).isSameAs(ServletApi.of(requestClass));
  }

  @Test
  void aPlainObjectIsNoHttpRequest() {
    assertThat(ServletApi.of(Object.class)).isNull();
    assertThat(ServletApi.of(String.class)).isNull();
  }

  @ParameterizedTest
  @EnumSource(Namespace.class)
  void aServletRequestThatIsNotHttpIsNoHttpRequest(Namespace namespace) {
    Object request =
        Proxy.newProxyInstance(
            getClass().getClassLoader(),
            new Class<?>[] {namespace.type("ServletRequest")},
            (self, method, args) -> null);
    assertThat(ServletApi.of(request.getClass())).isNull();
  }

  @ParameterizedTest
  @EnumSource(Namespace.class)
  void theRequestsOwnDispatchIsAnInitialHttpCall(Namespace namespace) throws Throwable {
    Request request = new Request(namespace);
    ServletApi api = ServletApi.of(request.proxy().getClass());
    assertThat(api.isInitialHttpCall(request.proxy(), new Response(namespace).proxy())).isTrue();
  }

  @ParameterizedTest
  @ValueSource(strings = {"FORWARD", "INCLUDE", "ASYNC", "ERROR"})
  void everyOtherDispatchIsNot(String dispatch) throws Throwable {
    for (Namespace namespace : Namespace.values()) {
      Request request = new Request(namespace);
      request.dispatcherType = dispatch;
      ServletApi api = ServletApi.of(request.proxy().getClass());
      assertThat(api.isInitialHttpCall(request.proxy(), new Response(namespace).proxy()))
          .as("%s %s", namespace, dispatch)
          .isFalse();
    }
  }

  @Test
  void aResponseOfTheOtherNamespaceIsNoHttpCall() throws Throwable {
    Request javax = new Request(Namespace.JAVAX);
    ServletApi api = ServletApi.of(javax.proxy().getClass());
    assertThat(api.isInitialHttpCall(javax.proxy(), new Response(Namespace.JAKARTA).proxy()))
        .isFalse();
    assertThat(api.isInitialHttpCall(javax.proxy(), new Object())).isFalse();
  }
}
