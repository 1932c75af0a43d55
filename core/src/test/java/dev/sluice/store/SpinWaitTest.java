package dev.sluice.store;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SpinWaitTest {
  /** Tests run on Java 9 or later, which has the hint: a failed look-up would mean no spin. */
  @Test
  void findsTheHintOnJava9AndLater() {
    assertThat(SpinWait.AVAILABLE).isTrue();
    SpinWait.once(); // the handle's type matches: invokeExact would throw if it did not
  }
}
