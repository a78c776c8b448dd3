package io.basaltdb.engine.cell;

import io.basaltdb.engine.Cell;

/**
 * Another cursor without the cells whose sequence id is above a bound: the stored cells a
 * transaction's snapshot may see, or the transaction's own cells a statement may see. Not
 * thread-safe.
 */
public final class UpToSequence implements CellIterator {
  private final CellIterator in;
  private final long upTo;

  public UpToSequence(CellIterator in, long upTo) {
    this.in = in;
    this.upTo = upTo;
  }

  private void skip() {
    while (in.current() != null && in.current().sequenceId() > upTo) {
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
  public void addTo(io.basaltdb.engine.ScanMetrics m) {
    in.addTo(m);
  }

  @Override
  public void close() {
    in.close();
  }
}
