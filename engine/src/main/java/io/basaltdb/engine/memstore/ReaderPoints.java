package io.basaltdb.engine.memstore;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The read points of the readers holding one memstore, as lower bounds: what {@link
 * MemStore#add(io.basaltdb.storage.Cell, java.util.function.LongSupplier) pruning} must leave
 * readable. A reader {@link #enter}s with a bound at or below the point it will read at, read
 * before it enters, then reads its point after entering; a pruner reads its settled point
 * first, then {@link #lowest()}. So either the pruner sees the reader, or the reader entered
 * after the pruner's settled point was read, and reads at a point at or above it (read points
 * never go down). Slots are claimed by compare-and-set; readers past the slots are counted,
 * and while any is, nothing is pruned. Thread-safe.
 */
final class ReaderPoints {
  /** Slots for readers at once; one per thread of a busy server is plenty. */
  private static final int SLOTS = 32;
  /** The token of a reader counted past the slots. */
  static final int OVERFLOW = -1;

  /** Each slot: 0 when free, else its reader's bound plus one. */
  private final AtomicLongArray slots = new AtomicLongArray(SLOTS);
  private final AtomicInteger overflow = new AtomicInteger();

  /** Registers a reader reading at {@code bound} or above; returns the token to {@link #exit}. */
  int enter(long bound) {
    int start = (int) (Thread.currentThread().getId() & (SLOTS - 1));
    for (int i = 0; i < SLOTS; i++) {
      int slot = (start + i) & (SLOTS - 1);
      if (slots.get(slot) == 0 && slots.compareAndSet(slot, 0, bound + 1)) {
        return slot;
      }
    }
    overflow.incrementAndGet();
    return OVERFLOW;
  }

  void exit(int token) {
    if (token == OVERFLOW) {
      overflow.decrementAndGet();
    } else {
      slots.set(token, 0);
    }
  }

  /** The lowest bound of the readers in now ({@code Long.MAX_VALUE}: none; -1: too many). */
  long lowest() {
    if (overflow.get() > 0) {
      return -1;
    }
    long lowest = Long.MAX_VALUE;
    for (int i = 0; i < SLOTS; i++) {
      long v = slots.get(i);
      if (v != 0) {
        lowest = Math.min(lowest, v - 1);
      }
    }
    return lowest;
  }
}
