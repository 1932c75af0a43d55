package dev.sluice.http;

import dev.sluice.core.RequestView;
import java.io.IOException;
import java.io.InputStream;

/**
 * One request and its response, as the Filter or the agent reaches them. Everything Sluice writes
 * to a response goes through these methods, so every entry point answers alike.
 */
public interface Exchange extends RequestView {
  /**
   * The request attribute that marks a request as counted. The Filter and the agent both set and
   * honour it, so together they still count a request once.
   */
  String DECIDED_ATTRIBUTE = "dev.sluice.decided";

  /** The attribute that marks a request as counted by the rules decided after login. */
  String DECIDED_AFTER_LOGIN_ATTRIBUTE = "dev.sluice.decided.after_login";

  /**
   * The request attribute Tomcat's {@code RemoteIpValve} and {@code RemoteIpFilter} set on every
   * request from one of their internal or trusted proxies, once they took the client's address from
   * {@code X-Forwarded-For} (and took that header away).
   */
  String TOMCAT_FORWARDED_ATTRIBUTE = "org.apache.tomcat.request.forwarded";

  /**
   * True when something before Sluice says this request came through a proxy and answers for the
   * peer's address one a forwarding header named, whose header it may have taken away: Tomcat's
   * {@code RemoteIpValve} (which Spring Boot turns on with {@code
   * server.forward-headers-strategy=native}, and by itself on Kubernetes) or {@code
   * RemoteIpFilter}, a request wrapper such as Spring's {@code ForwardedHeaderFilter}'s that
   * answers another address than the request it wraps. (Jetty's {@code ForwardedRequestCustomizer}
   * and Undertow's {@code ProxyPeerAddressHandler} mark nothing, but leave the headers in place.)
   */
  boolean forwarded();

  /**
   * Sets request attribute {@code attribute} and returns true, or returns false if it was set
   * already (a forward, include, error page or async re-dispatch of a request that was counted once
   * already).
   */
  default boolean markDecided(String attribute) {
    if (attribute(attribute) != null) {
      return false;
    }
    setAttribute(attribute, Boolean.TRUE);
    return true;
  }

  /** The request attribute {@code name}, or null when it is not set. */
  Object attribute(String name);

  /** Sets the request attribute {@code name} to {@code value}; null removes it. */
  void setAttribute(String name, Object value);

  /** The query string as sent, not decoded, without the {@code ?}; null when there is none. */
  String queryString();

  /** The request's body, to read once; only the admin endpoint's writes and login form read it. */
  InputStream body() throws IOException;

  void setHeader(String name, String value);

  /**
   * Clears the response (status, headers, buffered body) so that Sluice's own can take its place;
   * false, touching nothing, when it is committed already and can no longer be replaced.
   */
  boolean clearForResponse();

  /**
   * Writes a complete response that ends the request: {@code body} in UTF-8, its length given
   * before it, so the container sends {@code Content-Length} rather than a chunked body.
   */
  void respond(int status, String contentType, String body) throws IOException;
}
