package io.basaltdb.engine.cell;

import io.basaltdb.storage.Cell;

/**
 * Another cursor without the cells whose sequence id is above a bound, or among a few ids
 * hidden below it: the stored cells a snapshot may see (writes in flight when it was taken are
 * hidden), or a transaction's own cells a statement may see. Not thread-safe.
 */
public final class UpToSequence implements CellIterator {
  private static final long[] NONE = new long[0];
  private final CellIterator in;
  private final long upTo;
  /** Ids at or below {@link #upTo} hidden too, ascending. */
  private final long[] hidden;
  private final long lowestHidden;

  public UpToSequence(CellIterator in, long upTo) {
    this(in, upTo, NONE);
  }

  /** @param hidden ids at or below {@code upTo} to hide too, ascending */
  public UpToSequence(CellIterator in, long upTo, long[] hidden) {
    this.in = in;
    this.upTo = upTo;
    this.hidden = hidden;
    this.lowestHidden = hidden.length == 0 ? Long.MAX_VALUE : hidden[0];
  }

  /** The largest id at or below which {@code upTo} and {@code hidden} hide nothing. */
  public static long floor(long upTo, long[] hidden) {
    return hidden.length == 0 ? upTo : Math.min(upTo, hidden[0] - 1);
  }

  /** Whether a cell with sequence id {@code seq} is hidden by {@code upTo} and {@code hidden}. */
  public static boolean hides(long seq, long upTo, long[] hidden) {
    return seq > upTo || (hidden.length > 0 && seq >= hidden[0]
        && java.util.Arrays.binarySearch(hidden, seq) >= 0);
  }

  private void skip() {
    Cell c;
    while ((c = in.current()) != null && (c.sequenceId() > upTo
        || (c.sequenceId() >= lowestHidden && hides(c.sequenceId(), upTo, hidden)))) {
      in.next();
    }
  }

  @Override
  public void seekToFirst() {
    in.seekToFirst();
    skip();
  }

  @Override
  public void seek(Cell target) {
    in.seek(target);
    skip();
  }

  @Override
  public Cell current() {
    return in.current();
  }

  @Override
  public void next() {
    in.next();
    skip();
  }

  @Override
  public void addTo(io.basaltdb.storage.ScanMetrics m) {
    in.addTo(m);
  }

  @Override
  public void close() {
    in.close();
  }
}
