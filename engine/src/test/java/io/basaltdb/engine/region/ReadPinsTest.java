package io.basaltdb.engine.region;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The point compactions and flushes resolve at never passes what a cut may still hide. */
class ReadPinsTest {
  @Test
  void aWriteCompleteInOneRegionButInFlightElsewhereBoundsTheCompactionPoint() {
    DatabaseMvcc order = new DatabaseMvcc();
    ReadPins pins = new ReadPins(order);
    Mvcc a = new Mvcc(order);
    Mvcc b = new Mvcc(order);
    Mvcc.WriteEntry single = a.begin();
    a.complete(single);
    assertEquals(single.sequenceId(), pins.compactionPoint(a), "nothing in flight");

    List<Mvcc.WriteEntry> both = Mvcc.beginAll(List.of(a, b), order);
    long seq = both.get(0).sequenceId();
    a.complete(both.get(0)); // region a's part applied, region b's still applying
    assertEquals(seq, a.readPoint());
    SnapshotCut cut = order.cut();
    assertTrue(cut.floor() < seq, "a cut taken now hides the write: " + cut);
    assertEquals(seq - 1, pins.compactionPoint(a),
        "a flush of region a must keep what the write shadows: the cut still reads it");

    b.complete(both.get(1));
    assertEquals(seq, pins.compactionPoint(a));
    SnapshotCut pinned = pins.pin();
    Mvcc.WriteEntry later = a.begin();
    a.complete(later);
    assertEquals(pinned.floor(), pins.compactionPoint(a), "a pin holds the point down");
    pins.unpin(pinned);
    assertEquals(later.sequenceId(), pins.compactionPoint(a));
  }

  @Test
  void pinsReleasedInAnyOrderLeaveTheLowestHeldFloor() {
    long seed = System.nanoTime();
    System.out.println("ReadPinsTest: seed=" + seed);
    Random random = new Random(seed);
    DatabaseMvcc order = new DatabaseMvcc();
    ReadPins pins = new ReadPins(order);
    Mvcc region = new Mvcc(order);
    List<SnapshotCut> held = new ArrayList<>();
    for (int i = 0; i < 40; i++) { // past the arrays' first size, some cuts sharing a floor
      if (random.nextBoolean()) {
        region.complete(region.begin());
      }
      SnapshotCut cut = pins.pin();
      held.add(cut);
      if (random.nextInt(4) == 0) {
        pins.pinAgain(cut);
        held.add(cut);
      }
    }
    region.complete(region.begin());
    Collections.shuffle(held, random);
    while (!held.isEmpty()) {
      long lowest = held.stream().mapToLong(SnapshotCut::floor).min().orElseThrow();
      assertEquals(lowest, pins.compactionPoint(region), "seed " + seed);
      assertEquals(held.size(), pins.count(), "seed " + seed);
      pins.unpin(held.remove(held.size() - 1));
    }
    assertEquals(0, pins.count());
    assertEquals(region.readPoint(), pins.compactionPoint(region));
  }
}
