package io.basaltdb.engine.region;

import java.util.Arrays;

/**
 * What a consistent snapshot sees: the writes with sequence ids at or below {@link #point}
 * except those in {@link #inFlight} (begun but not complete when the cut was taken; ascending).
 * {@link #floor} is the largest id at or below which the cut sees every write: compactions
 * keep what the cut sees by resolving no higher, and a write above the floor may be one the
 * cut did not see (a conflict check uses it). Immutable.
 */
public record SnapshotCut(long point, long[] inFlight) {
  static final long[] NONE = new long[0];

  /** The largest sequence id at or below which this cut sees every write. */
  public long floor() {
    return io.basaltdb.engine.cell.UpToSequence.floor(point, inFlight);
  }

  /** Whether a cell of the write with sequence id {@code seq} is outside this cut. */
  public boolean hides(long seq) {
    return io.basaltdb.engine.cell.UpToSequence.hides(seq, point, inFlight);
  }

  @Override
  public String toString() {
    return inFlight.length == 0 ? Long.toString(point)
        : point + " without " + Arrays.toString(inFlight);
  }
}
