package dev.sluice.store;

import static dev.sluice.store.ManualClock.SECOND;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.algo.Algorithm;
import dev.sluice.algo.Quota;
import dev.sluice.algo.Verdict;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What every {@link Store} must do, whatever keeps the counts. Each implementation runs these
 * scenarios through a subclass that says how to open it on a hand-driven clock.
 */
public abstract class StoreContract {
  protected static final long MINUTE = 60 * SECOND;

  protected final ManualClock clock = new ManualClock(1_800_000_000L * SECOND);
  protected Store store;

  protected abstract Store open(Clock clock);

  /** How many keys (identities of rules) the store opened last holds now. */
  protected abstract long keyCount();

  @BeforeEach
  void openStore() {
    store = open(clock);
  }

  @AfterEach
  void closeStore() {
    store.close();
  }

  protected Verdict take(Counters counters, String identity, long limit, long cost) {
    return takeAll(permit(counters, identity, limit, cost)).get(0).verdict();
  }

  protected List<Permit> takeAll(Permit... permits) {
    List<Permit> list = Arrays.asList(permits);
    store.acquire(list);
    return list;
  }

  protected static Permit permit(Counters counters, String identity, long limit, long cost) {
    return new Permit(counters, identity, Quota.of(limit, counters.windowMicros(), limit), cost);
  }

  protected Verdict peek(Counters counters, String identity, long limit) {
    Permit permit = permit(counters, identity, limit, 1);
    store.peek(Collections.singletonList(permit));
    return permit.verdict();
  }

  protected int drain(Counters counters, String identity, long limit) {
    int allowed = 0;
    while (allowed <= limit && take(counters, identity, limit, 1).allowed()) {
      allowed++;
    }
    return allowed;
  }

  @Test
  void everyAlgorithmAllowsItsLimitThenDenies() {
    for (Algorithm algorithm : Algorithm.values()) {
      Counters counters = store.counters("r-" + algorithm, algorithm, MINUTE);
      assertThat(drain(counters, "ip=10.0.0.1", 5)).as(algorithm.toString()).isEqualTo(5);
      Verdict denied = take(counters, "ip=10.0.0.1", 5, 1);
      assertThat(denied.allowed()).isFalse();
      assertThat(denied.retryAfterMicros()).isPositive();
    }
  }

  @Test
  void identitiesAndRulesCountApart() {
    Counters a = store.counters("a", Algorithm.FIXED_WINDOW, MINUTE);
    Counters b = store.counters("b", Algorithm.FIXED_WINDOW, MINUTE);
    drain(a, "ip=10.0.0.1", 2);
    assertThat(take(a, "ip=10.0.0.2", 2, 1).allowed()).isTrue();
    assertThat(take(b, "ip=10.0.0.1", 2, 1).allowed()).isTrue();
  }

  @Test
  void windowsRollOverAndIdleGapsForget() {
    Counters sliding = store.counters("s", Algorithm.SLIDING_WINDOW, MINUTE);
    drain(sliding, "k", 10);
    clock.advance(2 * MINUTE + 1);
    assertThat(drain(sliding, "k", 10)).isEqualTo(10);
    clock.advance(MINUTE);
    assertThat(drain(sliding, "k", 10)).as("half of the last window still weighs").isLessThan(10);
  }

  @Test
  void tokenBucketsRefill() {
    Counters bucket = store.counters("t", Algorithm.TOKEN_BUCKET, MINUTE);
    drain(bucket, "k", 6);
    clock.advance(20 * SECOND);
    assertThat(drain(bucket, "k", 6)).isEqualTo(2);
  }

  @Test
  void costTakesSeveralPermits() {
    Counters counters = store.counters("c", Algorithm.FIXED_WINDOW, MINUTE);
    assertThat(take(counters, "k", 10, 4).remaining()).isEqualTo(6);
    assertThat(take(counters, "k", 10, 7).allowed()).isFalse();
    assertThat(take(counters, "k", 10, 6).remaining()).isZero();
  }

  /**
   * The tiers of a rule share its count (a rule keyed by ip, free and pro clients behind one
   * address): a denial under the free limit is no denial under the pro one, and the other way round
   * the pro denial denies the free request too. (The pro bucket is the bigger one, as a tier's
   * burst scales with its limit; tiers of a bucket share one backlog.)
   */
  @Test
  void eachTierOfOneCountIsDecidedByItsOwnLimit() {
    Quota free = Quota.of(2, MINUTE, 2);
    Quota pro = Quota.of(5, MINUTE, 10);
    for (Algorithm algorithm : Algorithm.values()) {
      Counters counters = store.counters("tiered-" + algorithm, algorithm, MINUTE);
      assertThat(take(counters, free).allowed()).isTrue();
      assertThat(take(counters, free).allowed()).isTrue();
      assertThat(take(counters, free).allowed()).as("free, %s", algorithm).isFalse();
      assertThat(take(counters, pro).allowed()).as("pro after free, %s", algorithm).isTrue();
      int spent = 1;
      while (spent <= pro.burst() && take(counters, pro).allowed()) {
        spent++;
      }
      assertThat(spent).as("pro spent, %s", algorithm).isBetween(2, 10);
      assertThat(take(counters, free).allowed()).as("free after pro, %s", algorithm).isFalse();
    }
  }

  private Verdict take(Counters counters, Quota quota) {
    return takeAll(new Permit(counters, "ip=10.0.0.1", quota, 1)).get(0).verdict();
  }

  @Test
  void aDeniedRequestTakesNothingFromItsOtherRules() {
    Counters perIp = store.counters("ip", Algorithm.SLIDING_WINDOW, MINUTE);
    Counters global = store.counters("global", Algorithm.TOKEN_BUCKET, MINUTE);
    drain(global, "global", 3);
    List<Permit> both = takeAll(permit(perIp, "ip=1", 10, 1), permit(global, "global", 3, 1));
    assertThat(both.get(1).verdict().allowed()).isFalse();
    assertThat(drain(perIp, "ip=1", 10)).as("per-IP quota untouched").isEqualTo(10);
  }

  @Test
  void allowedRequestsTakeFromEveryRule() {
    Counters perIp = store.counters("ip", Algorithm.FIXED_WINDOW, MINUTE);
    Counters global = store.counters("global", Algorithm.FIXED_WINDOW, MINUTE);
    List<Permit> both = takeAll(permit(global, "global", 5, 1), permit(perIp, "ip=1", 5, 1));
    assertThat(both).allMatch(p -> p.verdict().allowed() && p.verdict().remaining() == 4);
  }

  /**
   * A permit taken alone (a shadow rule's) beside a request's others is decided as if it were its
   * own request: a denial among the others takes nothing from it, and its denial nothing from them.
   */
  @Test
  void aPermitTakenAloneCountsWhateverTheOthersDecide() {
    Counters perIp = store.counters("ip", Algorithm.SLIDING_WINDOW, MINUTE);
    Counters global = store.counters("global", Algorithm.TOKEN_BUCKET, MINUTE);
    Counters trialIp = store.counters("trial-ip", Algorithm.FIXED_WINDOW, MINUTE);
    Counters trialGlobal = store.counters("trial-global", Algorithm.FIXED_WINDOW, MINUTE);
    drain(global, "global", 3);
    drain(trialGlobal, "global", 2);
    Permit ip = permit(perIp, "ip=1", 10, 1);
    Permit all = permit(global, "global", 3, 1);
    Permit aloneIp = permit(trialIp, "ip=1", 5, 1);
    Permit aloneAll = permit(trialGlobal, "global", 2, 1);
    store.acquire(Arrays.asList(ip, all), Arrays.asList(aloneIp, aloneAll));
    assertThat(all.verdict().allowed()).isFalse();
    assertThat(aloneIp.verdict().allowed()).as("taken, though the request is denied").isTrue();
    assertThat(aloneIp.verdict().remaining()).isEqualTo(4);
    assertThat(aloneAll.verdict().allowed()).isFalse();
    assertThat(aloneAll.verdict().retryAfterMicros()).isPositive();
    assertThat(drain(perIp, "ip=1", 10)).as("per-IP quota untouched").isEqualTo(10);
    assertThat(drain(trialIp, "ip=1", 5)).as("one taken alone").isEqualTo(4);

    Permit again = permit(perIp, "ip=2", 10, 1);
    Permit deniedAlone = permit(trialGlobal, "global", 2, 1);
    store.acquire(Collections.singletonList(again), Collections.singletonList(deniedAlone));
    assertThat(deniedAlone.verdict().allowed()).isFalse();
    assertThat(again.verdict().allowed()).as("a denial alone denies nothing else").isTrue();
    assertThat(again.verdict().remaining()).isEqualTo(9);
  }

  @Test
  void permitsTakenAloneNeedNoOthers() {
    Counters a = store.counters("a", Algorithm.FIXED_WINDOW, MINUTE);
    Counters b = store.counters("b", Algorithm.TOKEN_BUCKET, MINUTE);
    drain(b, "ip=1", 1);
    Permit first = permit(a, "ip=1", 2, 1);
    Permit second = permit(b, "ip=1", 1, 1);
    store.acquire(Collections.<Permit>emptyList(), Arrays.asList(first, second));
    assertThat(first.verdict().allowed()).isTrue();
    assertThat(first.verdict().remaining()).isEqualTo(1);
    assertThat(second.verdict().allowed()).isFalse();
    assertThat(drain(a, "ip=1", 2)).isEqualTo(1);
  }

  @Test
  void askingAgainForTheSameRuleKeepsItsCounts() {
    drain(store.counters("login", Algorithm.TOKEN_BUCKET, MINUTE), "ip=1", 3);
    Counters again = store.counters("login", Algorithm.TOKEN_BUCKET, MINUTE);
    assertThat(take(again, "ip=1", 3, 1).allowed()).isFalse();
    Counters otherWindow = store.counters("login", Algorithm.TOKEN_BUCKET, 2 * MINUTE);
    assertThat(take(otherWindow, "ip=1", 3, 1).allowed()).as("a new window starts anew").isTrue();
  }

  @Test
  void retainOnlyKeepsTheCountsOfLiveRules() {
    Counters kept = store.counters("kept", Algorithm.FIXED_WINDOW, MINUTE);
    Counters dropped = store.counters("dropped", Algorithm.FIXED_WINDOW, MINUTE);
    drain(kept, "k", 2);
    drain(dropped, "k", 2);
    store.retainOnly(Collections.singletonList(kept));
    assertThat(take(kept, "k", 2, 1).allowed()).isFalse();
    // What a store keeps of a dropped rule is its own business (memory forgets it at once, Redis
    // lets its keys expire), but the rule must work when it comes back.
    Counters back = store.counters("dropped", Algorithm.FIXED_WINDOW, MINUTE);
    clock.advance(MINUTE);
    assertThat(take(back, "k", 2, 1).allowed()).isTrue();
  }

  @Test
  void aPeekTellsWhatTheNextAcquireDecides() {
    for (Algorithm algorithm : Algorithm.values()) {
      Counters counters = store.counters("peek-" + algorithm, algorithm, MINUTE);
      for (int i = 0; i < 8; i++) { // five allowed, then denials
        clock.advance(SECOND);
        Verdict peeked = peek(counters, "ip=10.0.0.1", 5);
        Verdict taken = take(counters, "ip=10.0.0.1", 5, 1);
        assertThat(peeked).as("%s, request %d", algorithm, i).hasToString(taken.toString());
      }
    }
  }

  @Test
  void aPeekChangesNothing() {
    for (Algorithm algorithm : Algorithm.values()) {
      Counters counters = store.counters("still-" + algorithm, algorithm, MINUTE);
      take(counters, "ip=10.0.0.1", 5, 1);
      take(counters, "ip=10.0.0.1", 5, 1);
      long keys = keyCount();
      assertThat(keys).as("keys of the takes").isPositive();
      Verdict first = peek(counters, "ip=10.0.0.1", 5);
      assertThat(peek(counters, "ip=10.0.0.1", 5)).hasToString(first.toString());
      assertThat(first.remaining()).isEqualTo(2);
      assertThat(keyCount()).isEqualTo(keys);
      assertThat(drain(counters, "ip=10.0.0.1", 5)).as(algorithm.toString()).isEqualTo(3);
    }
  }

  @Test
  void aPeekOfAnIdentityNeverSeenTellsTheWholeQuotaAndStoresNothing() {
    for (Algorithm algorithm : Algorithm.values()) {
      Counters counters = store.counters("fresh-" + algorithm, algorithm, MINUTE);
      long keys = keyCount();
      Verdict fresh = peek(counters, "ip=10.0.0.9", 5);
      assertThat(fresh.allowed()).isTrue();
      assertThat(fresh.remaining()).as("the whole limit less this request").isEqualTo(4);
      assertThat(keyCount()).as("%s: no key", algorithm).isEqualTo(keys);
    }
  }

  @Test
  void aPeekOfADeniedIdentityTellsItsWait() {
    for (Algorithm algorithm : Algorithm.values()) {
      Counters counters = store.counters("denied-" + algorithm, algorithm, MINUTE);
      drain(counters, "ip=10.0.0.1", 3);
      clock.advance(SECOND);
      Verdict peeked = peek(counters, "ip=10.0.0.1", 3);
      assertThat(peeked.allowed()).isFalse();
      assertThat(peeked.retryAfterMicros()).isPositive();
      assertThat(peeked).hasToString(take(counters, "ip=10.0.0.1", 3, 1).toString());
    }
  }

  /** Unlike acquire, which may stop at a denial, a peek decides every permit, each on its own. */
  @Test
  void aPeekDecidesEveryPermitOnItsOwn() {
    Counters perIp = store.counters("ip", Algorithm.FIXED_WINDOW, MINUTE);
    Counters global = store.counters("global", Algorithm.TOKEN_BUCKET, MINUTE);
    drain(perIp, "ip=1", 2);
    take(global, "global", 4, 1);
    List<Permit> peeked =
        Arrays.asList(
            permit(perIp, "ip=1", 2, 1),
            permit(global, "global", 4, 1),
            permit(perIp, "ip=2", 2, 1));
    store.peek(peeked);
    assertThat(peeked.get(0).verdict().allowed()).isFalse();
    assertThat(peeked.get(1).verdict().allowed()).isTrue();
    assertThat(peeked.get(1).verdict().remaining()).isEqualTo(2);
    assertThat(peeked.get(2).verdict().allowed()).isTrue();
    assertThat(peeked.get(2).verdict().remaining()).isEqualTo(1);
  }
}
