package dev.sluice.agent;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.MalformedURLException;
import java.net.URL;
import java.security.CodeSource;
import java.security.ProtectionDomain;
import java.security.cert.Certificate;
import java.util.Collections;
import java.util.Enumeration;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

/**
 * Loads the agent's engine and libraries (Sluice's core, SnakeYAML, Jedis, ASM, SLF4J) from
 * {@code inst/} inside the agent jar, where class files end in {@code .classdata}: no other class
 * loader, and no class path scanner, can find them, so they can never clash with an application's
 * own copies. Its parent is the platform loader ({@link #jdkLoaderAbove}): the agent sees the JDK
 * and nothing of the application.
 */
final class IsolatedClassLoader extends ClassLoader {
  static final String PREFIX = "inst/";
  private static final String CLASS_DATA = ".classdata";

  static {
    registerAsParallelCapable();
  }

  private final JarFile jar;
  private final String jarUrl;
  private final ProtectionDomain domain;

  IsolatedClassLoader(JarFile jar, URL location) {
    super(jdkLoaderAbove(ClassLoader.getSystemClassLoader()));
    this.jar = jar;
    this.jarUrl = "jar:" + location + "!/";
    this.domain = new ProtectionDomain(new CodeSource(location, (Certificate[]) null), null);
  }

  /**
   * The top-most ancestor of the system class loader: the platform loader (the extension loader on
   * Java 8), which sees the JDK and nothing of the application, also when {@code
   * -Djava.system.class.loader} puts an application's loader above the JDK's own; null (the boot
   * loader) for a system class loader without a parent.
   */
  static ClassLoader jdkLoaderAbove(ClassLoader system) {
    ClassLoader top = system.getParent();
    while (top != null && top.getParent() != null) {
      top = top.getParent();
    }
    return top;
  }

  @Override
  protected Class<?> findClass(String name) throws ClassNotFoundException {
    JarEntry entry = jar.getJarEntry(PREFIX + name.replace('.', '/') + CLASS_DATA);
    if (entry == null) {
      throw new ClassNotFoundException(name);
    }
    byte[] bytes;
    try (InputStream in = jar.getInputStream(entry)) {
      bytes = readAll(in);
    } catch (IOException e) {
      throw new ClassNotFoundException(name, e);
    }
    int dot = name.lastIndexOf('.');
    if (dot > 0) {
      definePackageOnce(name.substring(0, dot));
    }
    return defineClass(name, bytes, 0, bytes.length, domain);
  }

  private void definePackageOnce(String name) {
    synchronized (getClassLoadingLock("package " + name)) {
      if (getPackageDefined(name) == null) {
        definePackage(name, null, null, null, null, null, null, null);
      }
    }
  }

  @SuppressWarnings("deprecation") // getDefinedPackage is Java 9+; this runs on 8 too
  private Package getPackageDefined(String name) {
    return getPackage(name);
  }

  @Override
  protected URL findResource(String name) {
    String entry =
        PREFIX
            + (name.endsWith(".class")
                ? name.substring(0, name.length() - ".class".length()) + CLASS_DATA
                : name);
    if (jar.getJarEntry(entry) == null) {
      return null;
    }
    try {
      return new URL(jarUrl + entry);
    } catch (MalformedURLException e) {
      return null;
    }
  }

  @Override
  protected Enumeration<URL> findResources(String name) {
    URL url = findResource(name);
    return url == null
        ? Collections.<URL>emptyEnumeration()
        : Collections.enumeration(Collections.singletonList(url));
  }

  private static byte[] readAll(InputStream in) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream(8192);
    byte[] buffer = new byte[8192];
    for (int n; (n = in.read(buffer)) > 0; ) {
      out.write(buffer, 0, n);
    }
    return out.toByteArray();
  }
}
