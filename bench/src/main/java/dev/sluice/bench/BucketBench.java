package dev.sluice.bench;

import java.time.Duration;
import org.openjdk.jmh.annotations.Param;

/**
 * A bucket operation alone, without rule matching or identity building: the same limit for Sluice
 * and Bucket4j, on the same identity strings.
 */
public abstract class BucketBench extends KeyedBench {
  /** So high that nothing is ever denied during a run: both sides take the allow path. */
  static final long ALLOW_LIMIT = 1_000_000_000;

  static final Duration ALLOW_WINDOW = Duration.ofSeconds(1);

  /** One request a day, spent while filling: every timed call takes the deny path. */
  static final long DENY_LIMIT = 1;

  static final Duration DENY_WINDOW = Duration.ofDays(1);

  @Param({"allow", "deny"})
  public String outcome;

  /**
   * The identities requests look up. They equal, but are not, the strings the limiter stores: in
   * production each request builds its identity anew, so a lookup must compare against the stored
   * key's characters instead of matching it by reference.
   */
  protected String[] identities;

  @Override
  protected void build() throws Exception {
    identities = Identities.ipIdentities(keys);
    prepare(allow() ? ALLOW_LIMIT : DENY_LIMIT, allow() ? ALLOW_WINDOW : DENY_WINDOW);
    for (int i = 0; i < keys; i++) {
      // Made just before its state, as a client's first request makes it, so that the key and the
      // state share cache lines as they would in production.
      add(Identities.ipIdentity(i));
    }
  }

  /** Makes an empty limiter of {@code limit} per {@code window} for each identity. */
  protected abstract void prepare(long limit, Duration window);

  /** Creates the state of {@code identity}, which the limiter keeps as its key. */
  protected abstract void add(String identity);

  @Override
  protected boolean expectAllowed() {
    return allow();
  }

  private boolean allow() {
    return outcome.equals("allow");
  }
}
