package dev.sluice.agent.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiPredicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The bridge's per-thread depth. Gatekeeper does not catch what a gate throws: in a container the
 * advice swallows it (ServletEntryMethod), so the advised method runs on and still calls {@link
 * Gatekeeper#exit} on its way out. The tests here call enter and exit as the advice
 * would, exit included after a throw.
 */
class GatekeeperTest {
  private static final String FILTER = "doFilter";
  private static final String SERVICE = "service";

  private final List<Object> asked = new ArrayList<>();
  private final List<Object> askedAtServlet = new ArrayList<>();
  private final Object response = new Object();

  @BeforeEach
  void installRecordingGate() {
    Gatekeeper.install(
        new Gate() {
          @Override
          public boolean rejected(Object request, Object response) {
            asked.add(request);
            return "deny".equals(request);
          }

          @Override
          public boolean rejectedAtServlet(Object request, Object response) {
            askedAtServlet.add(request);
            return "deny at servlet".equals(request);
          }
        });
  }

  /** A gate that answers {@code verdict} at entry and lets everything through at the servlet. */
  private static Gate atEntry(BiPredicate<Object, Object> verdict) {
    return new Gate() {
      @Override
      public boolean rejected(Object request, Object response) {
        return verdict.test(request, response);
      }

      @Override
      public boolean rejectedAtServlet(Object request, Object response) {
        return false;
      }
    };
  }

  @AfterEach
  void restoreOpenGate() {
    // A failed test may have left this thread inside a call; exit never goes below zero.
    for (int i = 0; i < 8; i++) {
      Gatekeeper.exit();
    }
    Gatekeeper.install(atEntry((request, response) -> false));
  }

  @Test
  void theOutermostCallReturnsTheGatesVerdict() {
    assertThat(Gatekeeper.enter("deny", response, FILTER)).isTrue();
    Gatekeeper.exit();
    assertThat(Gatekeeper.enter("allow", response, FILTER)).isFalse();
    Gatekeeper.exit();
    assertThat(asked).containsExactly("deny", "allow");
  }

  @Test
  void onlyTheOutermostCallOnAThreadReachesTheGate() {
    assertThat(Gatekeeper.enter("outer", response, FILTER)).isFalse();
    assertThat(Gatekeeper.enter("deny", response, FILTER)).isFalse();
    assertThat(Gatekeeper.enter("deny", response, FILTER)).isFalse();
    Gatekeeper.exit();
    Gatekeeper.exit();
    Gatekeeper.exit();
    assertThat(asked).containsExactly("outer");
  }

  @Test
  void exitsBalanceEntriesSoTheNextRequestIsAskedAgain() {
    Gatekeeper.enter("first", response, FILTER);
    Gatekeeper.enter("nested", response, FILTER);
    Gatekeeper.exit();
    Gatekeeper.exit();
    assertThat(Gatekeeper.enter("second", response, FILTER)).isFalse();
    Gatekeeper.exit();
    assertThat(asked).containsExactly("first", "second");
  }

  @Test
  void anExitWithoutEntryDoesNotHideTheNextRequest() {
    Gatekeeper.exit();
    Gatekeeper.exit();
    assertThat(Gatekeeper.enter("deny", response, FILTER)).isTrue();
    Gatekeeper.exit();
  }

  @Test
  void eachThreadHasItsOwnDepth() throws InterruptedException {
    Gatekeeper.enter("outer", response, FILTER);
    AtomicBoolean otherThreadRejected = new AtomicBoolean();
    Thread other =
        new Thread(() -> otherThreadRejected.set(Gatekeeper.enter("deny", response, FILTER)));
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
        atEntry(
            (request, response) -> {
              throw failure;
            }));
    assertThatThrownBy(() -> Gatekeeper.enter("any", response, FILTER)).isSameAs(failure);
    Gatekeeper.exit();
    installRecordingGate();
    assertThat(Gatekeeper.enter("deny", response, FILTER)).isTrue();
    Gatekeeper.exit();
  }

  @Test
  void anInstalledGateIsInChargeOfTheNextRequest() {
    Gatekeeper.install(atEntry((request, response) -> true));
    assertThat(Gatekeeper.enter("allow", response, FILTER)).isTrue();
    Gatekeeper.exit();
    assertThat(asked).isEmpty();
  }

  @Test
  void everyServletCallAsksTheGateAgainAfterTheFilters() {
    assertThat(Gatekeeper.enter("outer", response, FILTER)).isFalse();
    assertThat(Gatekeeper.enter("app filter's chain", response, FILTER)).isFalse();
    assertThat(Gatekeeper.enter("deny at servlet", response, SERVICE)).isTrue();
    Gatekeeper.exit();
    Gatekeeper.exit();
    Gatekeeper.exit();
    assertThat(asked).containsExactly("outer");
    assertThat(askedAtServlet).containsExactly("deny at servlet");
  }

  @Test
  void aServletEnteredFirstIsAskedAtEntryThenAtTheServlet() {
    assertThat(Gatekeeper.enter("allow", response, SERVICE)).isFalse();
    Gatekeeper.exit();
    assertThat(Gatekeeper.enter("deny", response, SERVICE)).isTrue();
    Gatekeeper.exit();
    assertThat(asked).containsExactly("allow", "deny");
    assertThat(askedAtServlet)
        .as("a request denied at entry is not asked at the servlet")
        .containsExactly("allow");
  }
}
