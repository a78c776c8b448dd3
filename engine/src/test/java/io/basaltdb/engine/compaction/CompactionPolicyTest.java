package io.basaltdb.engine.compaction;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import org.junit.jupiter.api.Test;

class CompactionPolicyTest {
  private final CompactionPolicy policy = new CompactionPolicy(3, 5, 1.2, 8);

  @Test
  void tooFewFilesSelectNothing() {
    assertNull(policy.select(List.of(10L, 10L)));
  }

  @Test
  void similarSizesAreMergedUpToTheMaximum() {
    assertArrayEquals(new int[] {0, 5}, policy.select(List.of(10L, 11L, 9L, 10L, 12L, 10L)));
  }

  @Test
  void aHugeOldFileIsLeftAlone() {
    // 1000 is far more than 1.2 x the rest: the window starts after it
    assertArrayEquals(new int[] {1, 4}, policy.select(List.of(1000L, 10L, 10L, 10L)));
  }

  @Test
  void amongEqualCountsTheSmallestTotalWins() {
    CompactionPolicy threeAtMost = new CompactionPolicy(3, 3, 1.2, 8);
    assertArrayEquals(new int[] {3, 6},
        threeAtMost.select(List.of(100L, 100L, 100L, 1L, 1L, 1L)));
  }

  @Test
  void nothingQualifiesBelowTheBlockingCount() {
    assertNull(policy.select(List.of(1000L, 100L, 10L, 1L)));
  }

  @Test
  void atTheBlockingCountTheSmallestWindowIsForced() {
    List<Long> sizes = List.of(100000L, 10000L, 1000L, 100L, 10L, 1L, 1L << 20, 1L << 22);
    assertArrayEquals(new int[] {3, 6}, policy.select(sizes));
  }
}
