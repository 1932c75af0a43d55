package dev.sluice.it.publish;

import dev.sluice.config.ConfigSource;
import dev.sluice.config.LiveLimiter;
import dev.sluice.metrics.ConfigStatus;

/**
 * One JVM of {@link PublishFleetIT}'s fleet: follows the file {@code args[0]} as the agent and the
 * Filter do (its own watcher thread, polling every second), and prints {@code rules <epoch millis>
 * <version> ok} or {@code rules <epoch millis> <version> rejected <the problem's first line>} each
 * time the version in force or its problem changes, read from its metrics every 10 ms.
 */
public final class RulesFollower {
  private RulesFollower() {}

  public static void main(String[] args) throws Exception {
    try (LiveLimiter live = LiveLimiter.start(ConfigSource.of(args[0], null), "follower")) {
      String last = null;
      while (true) {
        ConfigStatus status = live.metrics().config();
        String state =
            status.version()
                + (status.lastReload() == ConfigStatus.Reload.REJECTED
                    ? " rejected " + status.problem().split("\n")[0]
                    : " ok");
        if (!state.equals(last)) {
          System.out.println("rules " + System.currentTimeMillis() + " " + state);
          last = state;
        }
        Thread.sleep(10);
      }
    }
  }
}
