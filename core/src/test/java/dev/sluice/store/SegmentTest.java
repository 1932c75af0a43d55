package dev.sluice.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.algo.Algorithm;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The open-addressing table under the memory store: probing, growth, deletion, shrinking. */
class SegmentTest {
  private final Segment segment = new Segment(0);

  /** Identities whose home slot is the same, to force long probe chains and wrap-around. */
  private static long clashing(int n) {
    return 0x7000_0000L << 32 | (long) n << 1 | 1;
  }

  /** Marks an identity's state with a fixed-window index, so a sweep can pick who is idle. */
  private void put(long hi, long lo, long windowIndex) {
    int at = segment.insert(hi, lo);
    segment.slots[at + 2] = windowIndex;
  }

  @Test
  void findsWhatItHoldsAcrossGrowth() {
    Random random = new Random(7);
    List<long[]> keys = new ArrayList<>();
    for (int i = 0; i < 10_000; i++) {
      long[] key = {random.nextLong(), random.nextLong() | 1};
      keys.add(key);
      put(key[0], key[1], i);
    }
    assertThat(segment.size).isEqualTo(10_000);
    for (int i = 0; i < keys.size(); i++) {
      int at = Segment.find(segment.slots, keys.get(i)[0], keys.get(i)[1]);
      assertThat(at).isNotNegative();
      assertThat(segment.slots[at + 2]).isEqualTo(i);
    }
    assertThat(Segment.find(segment.slots, 1, 3)).isEqualTo(-1);
  }

  @Test
  void sweepingDeletesWithoutLosingTheRestOfAProbeChain() {
    for (int i = 0; i < 6; i++) {
      put(i, clashing(i), i % 2 == 0 ? 0 : 100); // even ones idle at window 1
    }
    int dropped = segment.sweep(0, Integer.MAX_VALUE, 1, Algorithm.FIXED_WINDOW, 1);
    assertThat(dropped).isEqualTo(3);
    for (int i = 0; i < 6; i++) {
      int at = Segment.find(segment.slots, i, clashing(i));
      if (i % 2 == 0) {
        assertThat(at).as("idle " + i).isEqualTo(-1);
      } else {
        assertThat(at).as("live " + i).isNotNegative();
        assertThat(segment.slots[at + 2]).isEqualTo(100);
      }
    }
  }

  @Test
  void probeChainsWrapAroundTheEndOfTheArray() {
    long wrapping = 7L << 32 | 1; // home is the last of 8 slots
    for (int i = 0; i < 4; i++) {
      put(i, wrapping + 2L * i, i == 0 ? 0 : 100);
    }
    segment.sweep(0, Integer.MAX_VALUE, 1, Algorithm.FIXED_WINDOW, 1);
    for (int i = 1; i < 4; i++) {
      assertThat(Segment.find(segment.slots, i, wrapping + 2L * i)).isNotNegative();
    }
    assertThat(segment.size).isEqualTo(3);
  }

  @Test
  void aSweptTableShrinksAndKeepsItsSurvivors() {
    for (int i = 0; i < 1_000; i++) {
      put(i, (long) i << 33 | 1, i < 10 ? 100 : 0);
    }
    int grown = segment.slots.length;
    segment.sweep(0, Integer.MAX_VALUE, 1, Algorithm.FIXED_WINDOW, 1);
    segment.compact();
    assertThat(segment.slots.length).isLessThan(grown / 8);
    for (int i = 0; i < 10; i++) {
      assertThat(Segment.find(segment.slots, i, (long) i << 33 | 1)).isNotNegative();
    }
  }

  @Test
  void clearForgetsEverything() {
    put(1, 3, 0);
    put(2, 5, 0);
    assertThat(segment.clear()).isEqualTo(2);
    assertThat(Segment.find(segment.slots, 1, 3)).isEqualTo(-1);
  }

  @Test
  void hashesAreStablePerSeedOddAndSpread() {
    Hash128 a = new Hash128(42);
    Hash128 b = new Hash128(42);
    assertThat(a.of("ip=10.0.0.1").hi).isEqualTo(b.of("ip=10.0.0.1").hi);
    assertThat(a.lo).isEqualTo(b.lo).isOdd();
    java.util.Set<Long> seen = new java.util.HashSet<>();
    for (int i = 0; i < 100_000; i++) {
      seen.add(a.of("ip=10." + (i >> 16) + "." + (i >> 8 & 255) + "." + (i & 255)).hi);
    }
    assertThat(seen).hasSize(100_000);
    assertThat(new Hash128(43).of("ip=10.0.0.1").hi).isNotEqualTo(b.of("ip=10.0.0.1").hi);
  }
}
