package dev.sluice.agent.gate;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Servlet requests and responses of either namespace, as {@link Proxy} instances of the API's own
 * interfaces: the agent reaches them through method handles exactly as it reaches a container's. A
 * method a fake does not implement throws, so an unexpected call fails the test.
 */
final class FakeServlet {
  private FakeServlet() {}

  /** The two servlet APIs the agent serves. */
  enum Namespace {
    JAVAX("javax.servlet"),
    JAKARTA("jakarta.servlet");

    final String prefix;

    Namespace(String prefix) {
      this.prefix = prefix;
    }

    Class<?> type(String simpleName) {
      try {
        return Class.forName(prefix + "." + simpleName);
      } catch (ClassNotFoundException e) {
        throw new AssertionError(e);
      }
    }

    /** This namespace's {@code DispatcherType} constant of that name. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    Object dispatcherType(String name) {
      return Enum.valueOf((Class) type("DispatcherType"), name);
    }
  }

  /** A GET request; its fields may be changed until {@link #proxy} is first called. */
  static final class Request {
    final Namespace namespace;
    final Map<String, Object> attributes = new HashMap<>();
    final Map<String, List<String>> headers = new HashMap<>();

    /** Methods that throw when called, as a broken container or wrapper would. */
    final Set<String> failing = new HashSet<>();

    String path = "/hello";
    String query;
    String remoteAddress = "203.0.113.7";
    String dispatcherType = "REQUEST";

    Request(Namespace namespace) {
      this.namespace = namespace;
    }

    Object proxy() {
      return FakeServlet.proxy(namespace.type("http.HttpServletRequest"), this::answer);
    }

    private Object answer(String method, Object[] args) {
      if (failing.contains(method)) {
        throw new IllegalStateException(method + " failed on purpose");
      }
      return switch (method) {
        case "getMethod" -> "GET";
        case "getRequestURI" -> path;
        case "getQueryString" -> query;
        case "getRemoteAddr" -> remoteAddress;
        case "getRemoteUser" -> null;
        case "getHeader" ->
            headers.getOrDefault((String) args[0], List.of()).stream().findFirst().orElse(null);
        case "getHeaders" ->
            Collections.enumeration(headers.getOrDefault((String) args[0], List.of()));
        case "getAttribute" -> attributes.get((String) args[0]);
        case "setAttribute" -> attributes.put((String) args[0], args[1]);
        case "getDispatcherType" -> namespace.dispatcherType(dispatcherType);
        default -> throw new UnsupportedOperationException("the fake request has no " + method);
      };
    }
  }

  /** A response that records what is written to it, in order. */
  static final class Response {
    final Namespace namespace;
    final Map<String, String> headers = new LinkedHashMap<>();

    /** Every call but isCommitted, in order, with its first argument: "reset", "setStatus 429". */
    final List<String> calls = new ArrayList<>();

    /**
     * Methods that throw when called: getWriter an IOException, the others IllegalStateException.
     */
    final Set<String> failing = new HashSet<>();

    boolean committed;
    int status = 200;
    String contentType;
    int contentLength = -1;
    StringWriter body = new StringWriter();

    Response(Namespace namespace) {
      this.namespace = namespace;
    }

    Object proxy() {
      return FakeServlet.proxy(namespace.type("http.HttpServletResponse"), this::answer);
    }

    private Object answer(String method, Object[] args) throws IOException {
      if (!method.equals("isCommitted")) {
        calls.add(args == null ? method : method + " " + args[0]);
      }
      if (failing.contains(method)) {
        if (method.equals("getWriter")) {
          throw new IOException("getWriter failed on purpose");
        }
        throw new IllegalStateException(method + " failed on purpose");
      }
      switch (method) {
        case "isCommitted" -> {
          return committed;
        }
        case "reset" -> {
          if (committed) {
            throw new IllegalStateException("reset after commit");
          }
          headers.clear();
          status = 200;
          contentType = null;
          body = new StringWriter();
        }
        case "setHeader" -> headers.put((String) args[0], (String) args[1]);
        case "setStatus" -> status = (Integer) args[0];
        case "setContentType" -> contentType = (String) args[0];
        case "setCharacterEncoding" -> {}
        case "setContentLength" -> contentLength = (Integer) args[0];
        case "getWriter" -> {
          return new PrintWriter(body);
        }
        default -> throw new UnsupportedOperationException("the fake response has no " + method);
      }
      return null;
    }
  }

  /** Answers one call by method name; Object's own methods are answered by identity. */
  private interface Answer {
    Object answer(String method, Object[] args) throws IOException;
  }

  private static Object proxy(Class<?> type, Answer answer) {
    InvocationHandler handler =
        (Object self, Method method, Object[] args) ->
            switch (method.getName()) {
              case "equals" -> args != null && args.length == 1 && self == args[0];
              case "hashCode" -> System.identityHashCode(self);
              case "toString" -> "fake " + type.getName();
              default -> answer.answer(method.getName(), args);
            };
    return Proxy.newProxyInstance(
        FakeServlet.class.getClassLoader(), new Class<?>[] {type}, handler);
  }
}
