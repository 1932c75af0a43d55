package dev.sluice.agent.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The bridge's per-thread depth. Gatekeeper does not catch what a gate throws: in a container the
 * advice runs with {@code suppress = Throwable.class}, so the advised method runs on and its exit
 * advice still calls {@link Gatekeeper#exit}. The tests here call enter and exit as the advice
 * would, exit included after a throw.
 */
class GatekeeperTest {
  private final List<Object> asked = new ArrayList<>();
  private final Object response = new Object();

  @BeforeEach
  void installRecordingGate() {
    Gatekeeper.install(
        (request, response) -> {
          asked.add(request);
          return "deny".equals(request);
        });
  }

  @AfterEach
  void restoreOpenGate() {
    // A failed test may have left this thread inside a call; exit never goes below zero.
    for (int i = 0; i < 8; i++) {
      Gatekeeper.exit();
    }
    Gatekeeper.install((request, response) -> false);
  }

  @Test
  void theOutermostCallReturnsTheGatesVerdict() {
    assertThat(Gatekeeper.enter("deny", response)).isTrue();
    Gatekeeper.exit();
    assertThat(Gatekeeper.enter("allow", response)).isFalse();
    Gatekeeper.exit();
    assertThat(asked).containsExactly("deny", "allow");
  }

  @Test
  void onlyTheOutermostCallOnAThreadReachesTheGate() {
    assertThat(Gatekeeper.enter("outer", response)).isFalse();
    assertThat(Gatekeeper.enter("deny", response)).isFalse();
    assertThat(Gatekeeper.enter("deny", response)).isFalse();
    Gatekeeper.exit();
    Gatekeeper.exit();
    Gatekeeper.exit();
    assertThat(asked).containsExactly("outer");
  }

  @Test
  void exitsBalanceEntriesSoTheNextRequestIsAskedAgain() {
    Gatekeeper.enter("first", response);
    Gatekeeper.enter("nested", response);
    Gatekeeper.exit();
    Gatekeeper.exit();
    assertThat(Gatekeeper.enter("second", response)).isFalse();
    Gatekeeper.exit();
    assertThat(asked).containsExactly("first", "second");
  }

  @Test
  void anExitWithoutEntryDoesNotHideTheNextRequest() {
    Gatekeeper.exit();
    Gatekeeper.exit();
    assertThat(Gatekeeper.enter("deny", response)).isTrue();
    Gatekeeper.exit();
  }

  @Test
  void eachThreadHasItsOwnDepth() throws InterruptedException {
    Gatekeeper.enter("outer", response);
    AtomicBoolean otherThreadRejected = new AtomicBoolean();
    Thread other = new Thread(() -> otherThreadRejected.set(Gatekeeper.enter("deny", response)));
    other.start();
    other.join();
    Gatekeeper.exit();
    assertThat(otherThreadRejected).isTrue();
    assertThat(asked).containsExactly("outer", "deny");
  }

  @Test
  void aGateThatThrowsPropagatesAndTheExitStillBalances() {
    IllegalStateException failure = new IllegalStateException("broken gate");
    Gatekeeper.install(
        (request, response) -> {
          throw failure;
        });
    assertThatThrownBy(() -> Gatekeeper.enter("any", response)).isSameAs(failure);
    Gatekeeper.exit();
    installRecordingGate();
    assertThat(Gatekeeper.enter("deny", response)).isTrue();
    Gatekeeper.exit();
  }

  @Test
  void anInstalledGateIsInChargeOfTheNextRequest() {
    Gatekeeper.install((request, response) -> true);
    assertThat(Gatekeeper.enter("allow", response)).isTrue();
    Gatekeeper.exit();
    assertThat(asked).isEmpty();
  }
}
