package dev.sluice.agent.install;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.instrument.ClassFileTransformer;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class PremainTransformerTest {
  private final ClassLoader app = new URLClassLoader(new URL[0], null);
  private final List<String> handedOn = new ArrayList<>();
  private final ClassFileTransformer entries =
      new ClassFileTransformer() {
        @Override
        public byte[] transform(
            ClassLoader loader,
            String name,
            Class<?> redefined,
            java.security.ProtectionDomain domain,
            byte[] classFile) {
          handedOn.add(name);
          return null;
        }
      };

  @Test
  void tellsWhenTheJdksLogManagerMakesItsRootLoggerNotWhenItIsLoaded() throws Exception {
    AtomicInteger told = new AtomicInteger();
    PremainTransformer premain = new PremainTransformer(told::incrementAndGet, entries);

    // An application's own LogManager subclass loads LogManager before it names its class.
    premain.transform(null, "java/util/logging/LogManager", null, null, new byte[0]);
    premain.transform(app, "java/util/logging/LogManager$RootLogger", null, null, new byte[0]);
    assertThat(told).as("told before the log manager made its root logger").hasValue(0);

    premain.transform(null, "java/util/logging/LogManager$RootLogger", null, null, new byte[0]);
    assertThat(told).hasValue(1);
  }

  @Test
  void tellsWhenTheContainerLoadsAnEntryItInstruments() throws Exception {
    AtomicInteger told = new AtomicInteger();
    PremainTransformer premain =
        new PremainTransformer(
            told::incrementAndGet,
            new ClassFileTransformer() {
              @Override
              public byte[] transform(
                  ClassLoader loader,
                  String name,
                  Class<?> redefined,
                  java.security.ProtectionDomain domain,
                  byte[] classFile) {
                return name.equals("a/ServletHandler") ? new byte[1] : null;
              }
            });

    premain.transform(app, "a/Other", null, null, new byte[0]);
    assertThat(told).as("told for a class it left as it was").hasValue(0);

    premain.transform(app, "a/ServletHandler", null, null, new byte[0]);
    assertThat(told).hasValue(1);
  }

  @Test
  void handsTheClassesOfEveryLoaderButTheBootLoadersToTheEntries() throws Exception {
    PremainTransformer premain = new PremainTransformer(() -> {}, entries);

    premain.transform(null, "java/lang/Thing", null, null, new byte[0]);
    premain.transform(app, "a/Chain", null, null, new byte[0]);

    assertThat(handedOn).containsExactly("a/Chain");
  }
}
