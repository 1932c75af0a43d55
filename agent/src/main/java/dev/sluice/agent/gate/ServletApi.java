package dev.sluice.agent.gate;

import java.io.PrintWriter;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.Enumeration;

/**
 * The few servlet methods Sluice calls, as method handles resolved once per request class in the
 * namespace (jakarta.servlet or javax.servlet) that class implements. The agent cannot link to
 * either API: it is loaded apart from every web app, and the same code serves both. Cached in a
 * {@link ClassValue}, so a web app's classes are never held past their own class loader's life.
 */
final class ServletApi {
  private static final String[] NAMESPACES = {"jakarta.servlet", "javax.servlet"};
  private static final ServletApi NONE = new ServletApi();
  private static final ClassValue<ServletApi> BY_REQUEST_CLASS =
      new ClassValue<ServletApi>() {
        @Override
        protected ServletApi computeValue(Class<?> requestClass) {
          return resolve(requestClass);
        }
      };

  final Class<?> requestType;
  final Class<?> responseType;
  private final Object requestDispatch;
  final MethodHandle getMethod;
  final MethodHandle getRequestUri;
  final MethodHandle getQueryString;
  final MethodHandle getRemoteAddr;
  final MethodHandle getHeader;
  final MethodHandle getHeaders;
  final MethodHandle getRemoteUser;
  final MethodHandle getAttribute;
  final MethodHandle setAttribute;
  final MethodHandle getInputStream;
  private final MethodHandle getDispatcherType;
  final MethodHandle isCommitted;
  final MethodHandle reset;
  final MethodHandle setHeader;
  final MethodHandle setStatus;
  final MethodHandle setContentType;
  final MethodHandle setCharacterEncoding;
  final MethodHandle setContentLength;
  final MethodHandle getWriter;

  private ServletApi() {
    requestType = responseType = null;
    requestDispatch = null;
    getMethod =
        getRequestUri =
            getQueryString = getRemoteAddr = getHeader = getHeaders = getRemoteUser = null;
    getAttribute = setAttribute = getInputStream = getDispatcherType = null;
    isCommitted = reset = setHeader = setStatus = setContentType = setCharacterEncoding = null;
    setContentLength = getWriter = null;
  }

  private ServletApi(String namespace, Class<?> request, Class<?> response)
      throws ReflectiveOperationException {
    requestType = request;
    responseType = response;
    getMethod = handle(request, "getMethod", String.class);
    getRequestUri = handle(request, "getRequestURI", String.class);
    getQueryString = handle(request, "getQueryString", String.class);
    getRemoteAddr = handle(request, "getRemoteAddr", String.class);
    getHeader = handle(request, "getHeader", String.class, String.class);
    getHeaders = handle(request, "getHeaders", Enumeration.class, String.class);
    getRemoteUser = handle(request, "getRemoteUser", String.class);
    getAttribute = handle(request, "getAttribute", Object.class, String.class);
    setAttribute = handle(request, "setAttribute", void.class, String.class, Object.class);
    // Returns ServletInputStream, a servlet type: read as the InputStream it is.
    getInputStream =
        handle(request, "getInputStream", request.getMethod("getInputStream").getReturnType());
    Class<?> dispatcherType = dispatcherType(namespace, request.getClassLoader());
    // Servlet 2.x has no dispatcher types: every call there is the request's own.
    getDispatcherType =
        dispatcherType == null ? null : handle(request, "getDispatcherType", dispatcherType);
    requestDispatch = dispatcherType == null ? null : requestConstant(dispatcherType);
    isCommitted = handle(response, "isCommitted", boolean.class);
    reset = handle(response, "reset", void.class);
    setHeader = handle(response, "setHeader", void.class, String.class, String.class);
    setStatus = handle(response, "setStatus", void.class, int.class);
    setContentType = handle(response, "setContentType", void.class, String.class);
    setCharacterEncoding = handle(response, "setCharacterEncoding", void.class, String.class);
    setContentLength = handle(response, "setContentLength", void.class, int.class);
    getWriter = handle(response, "getWriter", PrintWriter.class);
  }

  /** The API a request of this class speaks, or null when it is no HTTP servlet request. */
  static ServletApi of(Class<?> requestClass) {
    ServletApi api = BY_REQUEST_CLASS.get(requestClass);
    return api == NONE ? null : api;
  }

  /** True for an HTTP response of this API on the request's own first dispatch. */
  boolean isInitialHttpCall(Object request, Object response) throws Throwable {
    return responseType.isInstance(response)
        && (getDispatcherType == null
            || (Object) getDispatcherType.invokeExact(request) == requestDispatch);
  }

  private static ServletApi resolve(Class<?> requestClass) {
    ClassLoader loader = requestClass.getClassLoader();
    for (String namespace : NAMESPACES) {
      try {
        Class<?> request = Class.forName(namespace + ".http.HttpServletRequest", false, loader);
        if (request.isAssignableFrom(requestClass)) {
          Class<?> response = Class.forName(namespace + ".http.HttpServletResponse", false, loader);
          return new ServletApi(namespace, request, response);
        }
      } catch (ReflectiveOperationException | LinkageError e) {
        // This namespace is not visible from the request's class loader: try the other one.
      }
    }
    return NONE;
  }

  private static Class<?> dispatcherType(String namespace, ClassLoader loader) {
    try {
      return Class.forName(namespace + ".DispatcherType", false, loader);
    } catch (ClassNotFoundException e) {
      return null;
    }
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static Object requestConstant(Class<?> dispatcherType) {
    return Enum.valueOf((Class) dispatcherType, "REQUEST");
  }

  /**
   * A virtual method of {@code owner} typed to take {@code Object} for the receiver, and to return
   * {@code Object} in place of a servlet type, so callers use {@code invokeExact} with no servlet
   * type they cannot name. JDK types (String, Enumeration, PrintWriter) stay as they are.
   */
  private static MethodHandle handle(
      Class<?> owner, String name, Class<?> returns, Class<?>... parameters)
      throws ReflectiveOperationException {
    MethodHandle handle =
        MethodHandles.publicLookup()
            .findVirtual(owner, name, MethodType.methodType(returns, parameters));
    MethodType erased = handle.type().changeParameterType(0, Object.class);
    if (!returns.isPrimitive() && returns.getClassLoader() != null) {
      erased = erased.changeReturnType(Object.class);
    }
    return handle.asType(erased);
  }
}
