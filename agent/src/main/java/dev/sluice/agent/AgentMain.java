package dev.sluice.agent;

import java.io.File;
import java.lang.instrument.Instrumentation;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.util.jar.JarFile;
import java.util.jar.Manifest;

/**
 * The agent's entry points: {@code premain} for {@code -javaagent}, {@code agentmain} for a runtime
 * attach, and {@code main} for the {@code check} and {@code attach} commands. JDK types only: this
 * class runs in the application's own class loader, before anything of the agent is set up.
 *
 * <p>Starting never throws and never stops the application: whatever fails is one line on stderr
 * and the application runs unlimited. (The one exception is asked for: {@code
 * on_invalid_config=refuse_start} exits a starting JVM that has no valid rules; see {@code
 * Installer}.)
 */
public final class AgentMain {
  /** Set once the agent runs in this JVM, so a second -javaagent flag or attach is a no-op. */
  static final String INSTALLED = "sluice.agent.installed";

  private static final String INSTALLER = "dev.sluice.agent.install.Installer";
  private static final String COMMANDS = "dev.sluice.agent.command.Commands";

  /** What the last runtime attach did, read back by {@code attach}: see {@code Commands}. */
  public static final String ATTACH_RESULT = "dev.sluice.agent.attach.result";

  /** The isolated class loader of the agent running in this JVM; null before it started. */
  private static ClassLoader installed;

  private AgentMain() {}

  public static void premain(String argument, Instrumentation instrumentation) {
    start(argument, instrumentation, true);
  }

  public static void agentmain(String argument, Instrumentation instrumentation) {
    start(argument, instrumentation, false);
  }

  /** {@code java -jar sluice-agent.jar check <ratelimit.yaml> | attach <pid> [config=<path>]}. */
  public static void main(String[] args) throws Throwable {
    JarFile jar = agentJar();
    Object code =
        call(
            isolated(jar).loadClass(COMMANDS).getMethod("run", String[].class, File.class),
            args,
            new File(jar.getName()));
    System.exit((Integer) code);
  }

  private static synchronized void start(
      String argument, Instrumentation instrumentation, boolean premain) {
    String result;
    try {
      if (System.getProperty(INSTALLED) == null) {
        JarFile jar = agentJar();
        // The bridge must come from the boot loader alone: added before anything names it.
        instrumentation.appendToBootstrapClassLoaderSearch(jar);
        ClassLoader isolated = isolated(jar);
        result =
            (String)
                call(
                    isolated
                        .loadClass(INSTALLER)
                        .getMethod("install", Instrumentation.class, String.class, boolean.class),
                    instrumentation,
                    argument,
                    premain);
        installed = isolated;
        System.setProperty(INSTALLED, jar.getName());
      } else if (!premain && installed != null) {
        result =
            (String)
                call(installed.loadClass(INSTALLER).getMethod("attachAgain", String.class), argument);
      } else {
        result = "already running (from another copy of the agent jar); nothing changed";
        System.err.println("Sluice: the agent is already running in this JVM; ignoring it again");
      }
    } catch (Throwable t) {
      result = "failed: " + t + "; the application runs without rate limits";
      System.err.println(
          "Sluice: the agent could not start ("
              + t
              + "); the application runs without rate limits");
    }
    if (!premain) {
      // What the attaching command reads back from this JVM to say what happened here.
      System.setProperty(ATTACH_RESULT, result);
    }
  }

  /** This jar, open, checked to be the agent itself (not some jar it was unpacked into). */
  private static JarFile agentJar() throws Exception {
    URL location = AgentMain.class.getProtectionDomain().getCodeSource().getLocation();
    JarFile jar = new JarFile(new File(location.toURI()));
    Manifest manifest = jar.getManifest();
    String premain =
        manifest == null ? null : manifest.getMainAttributes().getValue("Premain-Class");
    if (!AgentMain.class.getName().equals(premain)) {
      jar.close();
      throw new IllegalStateException(jar.getName() + " is not the Sluice agent jar");
    }
    return jar;
  }

  private static ClassLoader isolated(JarFile jar) throws Exception {
    return new IsolatedClassLoader(jar, new File(jar.getName()).toURI().toURL());
  }

  private static Object call(Method method, Object... args) throws Throwable {
    try {
      return method.invoke(null, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }
}
