package dev.sluice.support;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.ref.WeakReference;
import java.security.CodeSource;
import java.security.ProtectionDomain;
import java.security.cert.Certificate;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

/**
 * A class loader standing for a web application's: it defines one class of its own (with a
 * protection domain of its own, as a container gives each application) and delegates everything
 * else, Sluice included, to the test's loader. {@link #callOnItsThread} runs that class's {@link
 * Function} on a thread whose context loader is this one, as a container runs a request or a
 * filter's init: what Sluice starts from there must keep neither this loader nor that code's
 * protection domain reachable, or an undeployed application could never be collected.
 */
public final class WebAppLoader extends ClassLoader {
  private final Class<?> own;

  private WebAppLoader(Class<? extends Function<Object, Object>> template) {
    super(WebAppLoader.class.getClassLoader());
    String resource = template.getName().replace('.', '/') + ".class";
    byte[] bytes;
    try (InputStream in = getParent().getResourceAsStream(resource)) {
      bytes = in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    CodeSource source =
        new CodeSource(
            template.getProtectionDomain().getCodeSource().getLocation(), (Certificate[]) null);
    this.own =
        defineClass(
            template.getName(),
            bytes,
            0,
            bytes.length,
            new ProtectionDomain(source, null, this, null));
  }

  /**
   * Defines a copy of {@code template} (a public class with a public no-argument constructor) in a
   * fresh loader, applies it to {@code argument} on a new thread whose context loader is that loader, and
   * returns what it answered; {@code loader} then refers weakly to the loader, which nothing else
   * here keeps.
   */
  public static Object callOnItsThread(
      Class<? extends Function<Object, Object>> template,
      Object argument,
      AtomicReference<WeakReference<ClassLoader>> loader)
      throws InterruptedException {
    WebAppLoader app = new WebAppLoader(template);
    loader.set(new WeakReference<>(app));
    AtomicReference<Object> result = new AtomicReference<>();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    Thread request =
        new Thread(
            () -> {
              try {
                @SuppressWarnings("unchecked")
                Function<Object, Object> code =
                    (Function<Object, Object>) app.own.getConstructor().newInstance();
                result.set(code.apply(argument));
              } catch (Throwable t) {
                failure.set(t);
              }
            },
            "web-app-thread");
    request.setContextClassLoader(app);
    request.start();
    request.join();
    if (failure.get() != null) {
      throw new AssertionError("the web app's code failed", failure.get());
    }
    return result.get();
  }

  /**
   * Whether the loader was collected, asking for a full collection up to {@code attempts} times:
   * a collection is only a request, and one loader may need more than one.
   */
  public static boolean collected(WeakReference<ClassLoader> loader, int attempts)
      throws InterruptedException {
    for (int i = 0; i < attempts && loader.get() != null; i++) {
      System.gc();
      Thread.sleep(20);
    }
    return loader.get() == null;
  }
}
