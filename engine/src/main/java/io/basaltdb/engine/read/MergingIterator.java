package io.basaltdb.engine.read;

import io.basaltdb.storage.Cell;
import io.basaltdb.engine.cell.CellComparator;
import io.basaltdb.engine.cell.CellIterator;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;

/**
 * Merges several sorted {@link CellIterator}s (memstores and files) into one sorted stream.
 * Equal cells from several sources (a WAL replay of an already-flushed edit) all appear;
 * the resolver drops the duplicates. Not thread-safe.
 */
public final class MergingIterator implements CellIterator {
  private final List<CellIterator> sources;
  private final PriorityQueue<CellIterator> heap;
  private CellIterator top;

  @Override
  public void addTo(io.basaltdb.storage.ScanMetrics m) {
    for (CellIterator s : sources) {
      s.addTo(m);
    }
  }

  public MergingIterator(List<? extends CellIterator> sources) {
    this.sources = new ArrayList<>(sources);
    this.heap = new PriorityQueue<>(Math.max(1, sources.size()),
        (a, b) -> CellComparator.INSTANCE.compare(a.current(), b.current()));
  }

  @Override
  public void seekToFirst() {
    heap.clear();
    for (CellIterator s : sources) {
      s.seekToFirst();
      if (s.current() != null) {
        heap.add(s);
      }
    }
    top = heap.poll();
  }

  /**
   * Positions at the first cell at or after {@code target}. Forward of the current cell, only
   * the sources behind {@code target} move: every other source is already at its first cell
   * at or after it (a scan skipping columns seeks once per row, and would otherwise search
   * every file's index each time).
   */
  @Override
  public void seek(Cell target) {
    Cell at = current();
    if (at != null && CellComparator.INSTANCE.compare(at, target) < 0) {
      List<CellIterator> behind = new ArrayList<>();
      behind.add(top);
      while (!heap.isEmpty()
          && CellComparator.INSTANCE.compare(heap.peek().current(), target) < 0) {
        behind.add(heap.poll());
      }
      for (CellIterator s : behind) {
        s.seek(target);
        if (s.current() != null) {
          heap.add(s);
        }
      }
      top = heap.poll();
      return;
    }
    heap.clear();
    for (CellIterator s : sources) {
      s.seek(target);
      if (s.current() != null) {
        heap.add(s);
      }
    }
    top = heap.poll();
  }

  @Override
  public Cell current() {
    return top == null ? null : top.current();
  }

  @Override
  public void next() {
    if (top == null) {
      return;
    }
    top.next();
    if (top.current() == null) {
      top = heap.poll();
      return;
    }
    CellIterator peek = heap.peek();
    if (peek != null && CellComparator.INSTANCE.compare(peek.current(), top.current()) < 0) {
      heap.add(top);
      top = heap.poll();
    }
  }

  @Override
  public void close() {
    for (CellIterator s : sources) {
      s.close();
    }
  }
}
