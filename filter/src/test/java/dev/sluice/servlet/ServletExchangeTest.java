package dev.sluice.servlet;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.http.Exchange;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import java.lang.reflect.Proxy;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Whether the address of a request was rewritten before Sluice saw it. */
class ServletExchangeTest {
  private final Map<String, Object> attributes = new HashMap<>();

  /** The container's request, from {@code address}. */
  private HttpServletRequest request(String address) {
    return (HttpServletRequest)
        Proxy.newProxyInstance(
            getClass().getClassLoader(),
            new Class<?>[] {HttpServletRequest.class},
            (proxy, method, args) ->
                switch (method.getName()) {
                  case "getRemoteAddr" -> address;
                  case "getAttribute" -> attributes.get((String) args[0]);
                  default -> throw new UnsupportedOperationException(method.getName());
                });
  }

  private static boolean rewritten(HttpServletRequest request) {
    return new ServletExchange(request, null).forwarded();
  }

  @Test
  void aRequestAsTheContainerReceivedItIsNotRewritten() {
    assertThat(rewritten(request("10.1.2.3"))).isFalse();
    assertThat(rewritten(new HttpServletRequestWrapper(request("10.1.2.3"))))
        .as("a wrapper that keeps the address")
        .isFalse();
  }

  /** Tomcat's RemoteIpValve, which Spring Boot installs for forward-headers-strategy=native. */
  @Test
  void tomcatsMarkSaysTheAddressWasRewritten() {
    attributes.put(Exchange.TOMCAT_FORWARDED_ATTRIBUTE, Boolean.TRUE);
    assertThat(rewritten(request("127.0.0.1"))).isTrue();
  }

  /** Spring's ForwardedHeaderFilter wraps the request and answers the header's address. */
  @Test
  void aWrapperThatAnswersAnotherAddressRewroteIt() {
    HttpServletRequest forwarded =
        new HttpServletRequestWrapper(new HttpServletRequestWrapper(request("10.1.2.3"))) {
          @Override
          public String getRemoteAddr() {
            return "127.0.0.1";
          }
        };
    assertThat(rewritten(forwarded)).isTrue();
  }
}
