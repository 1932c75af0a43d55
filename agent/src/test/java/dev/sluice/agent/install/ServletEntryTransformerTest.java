package dev.sluice.agent.install;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.agent.bootstrap.Gate;
import dev.sluice.agent.bootstrap.Gatekeeper;
import dev.sluice.containers.Caller;
import dev.sluice.containers.Chain;
import dev.sluice.containers.Plain;
import dev.sluice.containers.Servlet;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.servlet.ServletRequest;
import javax.servlet.ServletResponse;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * The advice as the JVM runs it: container classes are transformed, defined in a class loader of
 * their own (so the JVM verifies them, stack map frames included) and called through the bridge
 * with a recording gate. That the depth is back to 0 after each call shows in the gate being asked
 * again at the next.
 */
class ServletEntryTransformerTest {
  private final List<String> asked = new ArrayList<>();
  private final List<String> written = new ArrayList<>();
  private final Map<String, Object> attributes = new HashMap<>();
  private final ServletResponse response = response();
  private final ServletRequest request = request();

  @BeforeEach
  void installRecordingGate() {
    Gatekeeper.install(
        new Gate() {
          @Override
          public boolean rejected(Object request, Object response) {
            asked.add("entry");
            Object verdict = attributes.get("verdict");
            if ("throw".equals(verdict)) {
              throw new IllegalStateException("the gate failed");
            }
            return "reject".equals(verdict);
          }

          @Override
          public boolean rejectedAtServlet(Object request, Object response) {
            asked.add("servlet");
            return "reject at servlet".equals(attributes.get("verdict"));
          }
        });
  }

  @Test
  void aRequestLetThroughRunsTheBodyToEachOfItsReturns() throws Exception {
    Object chain = advised(Chain.class);

    doFilter(chain);
    attributes.put("mode", "early");
    doFilter(chain);
    attributes.put("flush", "fails");
    attributes.remove("mode");
    doFilter(chain);

    assertThat(written).containsExactly("done", "early", "caught");
    assertThat(asked).as("asked at every call: the depth was back to 0").hasSize(3);
  }

  @Test
  void aRejectedRequestSkipsTheBody() throws Exception {
    Object chain = advised(Chain.class);
    attributes.put("verdict", "reject");

    doFilter(chain);
    doFilter(chain);

    assertThat(written).isEmpty();
    assertThat(asked).hasSize(2);
  }

  @Test
  void whatTheBodyThrowsIsThrownOnAndTheDepthStillUnwinds() throws Exception {
    Object chain = advised(Chain.class);
    attributes.put("mode", "boom");

    assertThatThrownBy(() -> doFilter(chain)).hasMessage("boom");
    assertThatThrownBy(() -> doFilter(chain)).hasMessage("boom");

    assertThat(asked).hasSize(2);
  }

  @Test
  void aFailingGateLetsTheRequestThrough() throws Exception {
    Object chain = advised(Chain.class);
    attributes.put("verdict", "throw");

    doFilter(chain);

    assertThat(written).containsExactly("done");
  }

  @Test
  void aServletFoundUpItsHierarchyIsAskedAgainAtItsService() throws Exception {
    Object servlet = advised(Servlet.class);

    call(servlet, "service");
    attributes.put("verdict", "reject at servlet");
    call(servlet, "service");

    assertThat(written).containsExactly("served");
    assertThat(asked).containsExactly("entry", "servlet", "entry", "servlet");
  }

  @Test
  void aClassFileWithoutStackMapFramesIsAdvisedToo() throws Exception {
    Object chain = advised("fixture.OldChain", java5Chain());
    attributes.put("verdict", "reject");
    doFilter(chain);
    attributes.remove("verdict");
    doFilter(chain);

    assertThat(written).containsExactly("old");
    assertThat(asked).hasSize(2);
  }

  @Test
  void whereTheBridgeCannotBeReachedTheRequestProceedsUnlimited() throws Exception {
    byte[] advised =
        ServletEntryAdvice.apply(
            new org.objectweb.asm.ClassReader(classFile(Chain.class)),
            List.of(ServletEntryAdvice.descriptorOf("javax/servlet")));
    Defining withoutBridge = new Defining(true);
    Object chain = withoutBridge.define(Chain.class.getName(), advised);

    doFilter(chain);
    doFilter(chain);

    assertThat(written).containsExactly("done", "done");
    assertThat(asked).isEmpty();
  }

  @Test
  void classesThatAreNoEntryAreLeftAlone() throws Exception {
    Defining loader = new Defining(false);
    ServletEntryTransformer transformer = new ServletEntryTransformer();

    assertThat(transformer.transform(loader, "x/Plain", null, null, classFile(Plain.class)))
        .as("no entry descriptor in its bytes")
        .isNull();
    assertThat(transformer.transform(loader, "x/Caller", null, null, classFile(Caller.class)))
        .as("calls an entry, implements none")
        .isNull();
    assertThat(transformer.transform(null, "x/Chain", null, null, classFile(Chain.class)))
        .as("the boot loader's")
        .isNull();
  }

  private Object advised(Class<?> type) throws Exception {
    return advised(type.getName(), classFile(type));
  }

  private Object advised(String name, byte[] classFile) throws Exception {
    Defining loader = new Defining(false);
    byte[] advised =
        new ServletEntryTransformer()
            .transform(loader, name.replace('.', '/'), null, null, classFile);
    assertThat(advised).as("advised").isNotNull();
    return loader.define(name, advised);
  }

  private void doFilter(Object target) throws Exception {
    call(target, "doFilter");
  }

  private void call(Object target, String method) throws Exception {
    Method entry =
        target.getClass().getMethod(method, ServletRequest.class, ServletResponse.class);
    try {
      entry.invoke(target, request, response);
    } catch (InvocationTargetException e) {
      throw (Exception) e.getCause();
    }
  }

  private static byte[] classFile(Class<?> type) throws IOException {
    try (InputStream in =
        type.getClassLoader().getResourceAsStream(type.getName().replace('.', '/') + ".class")) {
      return in.readAllBytes();
    }
  }

  /** A filter chain compiled for Java 5: no stack map frames. */
  private static byte[] java5Chain() {
    ClassWriter writer = new ClassWriter(ClassWriter.COMPUTE_MAXS);
    writer.visit(
        Opcodes.V1_5,
        Opcodes.ACC_PUBLIC,
        "fixture/OldChain",
        null,
        "java/lang/Object",
        new String[] {"javax/servlet/FilterChain"});
    MethodVisitor init = writer.visitMethod(Opcodes.ACC_PUBLIC, "<init>", "()V", null, null);
    init.visitCode();
    init.visitVarInsn(Opcodes.ALOAD, 0);
    init.visitMethodInsn(Opcodes.INVOKESPECIAL, "java/lang/Object", "<init>", "()V", false);
    init.visitInsn(Opcodes.RETURN);
    init.visitMaxs(0, 0);
    init.visitEnd();
    MethodVisitor filter =
        writer.visitMethod(
            Opcodes.ACC_PUBLIC,
            "doFilter",
            ServletEntryAdvice.descriptorOf("javax/servlet"),
            null,
            null);
    filter.visitCode();
    filter.visitVarInsn(Opcodes.ALOAD, 2);
    filter.visitLdcInsn("old");
    filter.visitMethodInsn(
        Opcodes.INVOKEINTERFACE,
        "javax/servlet/ServletResponse",
        "setContentType",
        "(Ljava/lang/String;)V",
        true);
    filter.visitInsn(Opcodes.RETURN);
    filter.visitMaxs(0, 0);
    filter.visitEnd();
    writer.visitEnd();
    return writer.toByteArray();
  }

  private ServletRequest request() {
    return (ServletRequest)
        Proxy.newProxyInstance(
            getClass().getClassLoader(),
            new Class<?>[] {ServletRequest.class},
            (proxy, method, args) ->
                method.getName().equals("getAttribute") ? attributes.get((String) args[0]) : null);
  }

  private ServletResponse response() {
    return (ServletResponse)
        Proxy.newProxyInstance(
            getClass().getClassLoader(),
            new Class<?>[] {ServletResponse.class},
            (proxy, method, args) -> {
              switch (method.getName()) {
                case "setContentType":
                  written.add((String) args[0]);
                  return null;
                case "flushBuffer":
                  if ("fails".equals(attributes.get("flush"))) {
                    throw new IOException("flush failed");
                  }
                  return null;
                case "isCommitted":
                  return false;
                default:
                  return null;
              }
            });
  }

  /** Defines advised classes of its own: a loader the JVM verifies, seeing the servlet API. */
  private static final class Defining extends ClassLoader {
    private final boolean hidesBridge;

    Defining(boolean hidesBridge) {
      super(ServletEntryTransformerTest.class.getClassLoader());
      this.hidesBridge = hidesBridge;
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
      if (hidesBridge && name.startsWith("dev.sluice.agent.bootstrap.")) {
        throw new ClassNotFoundException(name); // as a JBoss module that was not told of it
      }
      return super.loadClass(name, resolve);
    }

    Object define(String name, byte[] classFile) throws Exception {
      return defineClass(name, classFile, 0, classFile.length)
          .getDeclaredConstructor()
          .newInstance();
    }
  }
}
