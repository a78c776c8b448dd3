package io.basaltdb.engine.store;

import io.basaltdb.storage.Cell;
import io.basaltdb.storage.FamilyOptions;
import io.basaltdb.storage.StorageIOException;
import io.basaltdb.engine.Clock;
import io.basaltdb.engine.cache.BlockCache;
import io.basaltdb.engine.cell.CellComparator;
import io.basaltdb.engine.cell.CellIterator;
import io.basaltdb.engine.file.BlockFileReader;
import io.basaltdb.engine.file.BlockFileWriter;
import io.basaltdb.engine.file.WriterOptions;
import io.basaltdb.engine.io.FileSystem;
import io.basaltdb.engine.manifest.Manifest;
import io.basaltdb.engine.read.CellResolver;
import io.basaltdb.engine.read.MergingIterator;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Writes a store's new block files: a flush's or a compaction's output in the store's own
 * directory (numbered from the store's counter), and a split's copy of a row range into a
 * daughter store's directory (recorded in that directory's manifest at once).
 *
 * <p>Invariant: a file returned by {@link #write} is finished, synced and open for reading, and
 * no manifest names it yet (the store installs it); a file that fails half-way is deleted at
 * once, or else as a leftover at the next open.
 */
final class StoreFileMaker {
  private final FileSystem fs;
  private final Path dir;
  private final byte[] family;
  private final BlockCache cache;
  private final Clock clock;
  private final AtomicLong nextFileNumber;

  StoreFileMaker(FileSystem fs, Path dir, byte[] family, BlockCache cache, Clock clock,
      long nextFileNumber) {
    this.fs = fs;
    this.dir = dir;
    this.family = family;
    this.cache = cache;
    this.clock = clock;
    this.nextFileNumber = new AtomicLong(nextFileNumber);
  }

  /** The number the next file gets (what a manifest records as its next file number). */
  long nextFileNumber() {
    return nextFileNumber.get();
  }

  /** Writes what {@code resolver} yields to a new file; null when nothing survives. */
  StoreFile write(CellResolver resolver, FamilyOptions options) {
    long number = nextFileNumber.getAndIncrement();
    String name = Manifest.fileName(number);
    Path p = dir.resolve(name);
    try {
      try (BlockFileWriter w = new BlockFileWriter(fs, p, family, WriterOptions.of(options),
          clock.millis())) {
        for (Cell c = resolver.next(); c != null; c = resolver.next()) {
          w.append(c);
        }
        if (w.cellCount() == 0) {
          return null;
        }
        w.finish();
      }
      BlockFileReader reader = BlockFileReader.open(fs, p, cache);
      reader.setCachePriority(options.inMemory());
      return new StoreFile(fs, number, name, reader);
    } catch (RuntimeException e) {
      deleteUnnamed(p); // no manifest names it yet: a full disk gets its space back at once
      throw e;
    }
  }

  /** Deletes a file no manifest names, on a failure path (a failure here changes nothing). */
  void deleteUnnamed(Path p) {
    try {
      fs.deleteIfExists(p);
    } catch (IOException | RuntimeException ignored) {
      // deleted at the next open as a leftover
    }
  }

  /**
   * Copies every cell of {@code files} with a row in {@code [start, end)} (empty end = no end),
   * unresolved, into one new file of the store directory {@code target}, and records it in that
   * directory's manifest, whose flushed sequence id becomes at least {@code flushedSeq}.
   */
  void copyRange(List<StoreFile> files, Path target, byte[] start, byte[] end,
      FamilyOptions options, long flushedSeq) {
    Manifest m = Manifest.read(fs, target);
    long number = m.nextFileNumber();
    Path p = target.resolve(Manifest.fileName(number));
    for (StoreFile f : files) {
      f.retain();
    }
    long cells;
    try {
      List<CellIterator> its = new ArrayList<>();
      for (StoreFile f : files) {
        its.add(f.reader().scanner());
      }
      try (MergingIterator merged = new MergingIterator(its);
          BlockFileWriter w = new BlockFileWriter(fs, p, family, WriterOptions.of(options),
              clock.millis())) {
        merged.seek(CellComparator.firstOnRow(start, family));
        for (Cell c = merged.current(); c != null; merged.next(), c = merged.current()) {
          if (end.length > 0 && Arrays.compareUnsigned(c.row(), end) >= 0) {
            break;
          }
          w.append(c);
        }
        cells = w.cellCount();
        if (cells > 0) {
          w.finish();
        }
      }
    } finally {
      for (StoreFile f : files) {
        f.release();
      }
    }
    List<Manifest.FileEntry> entries = new ArrayList<>(m.files());
    try {
      if (cells > 0) {
        entries.add(new Manifest.FileEntry(p.getFileName().toString(), fs.size(p)));
      }
    } catch (IOException e) {
      throw StorageIOException.wrap("cannot stat " + p, e);
    }
    new Manifest(Math.max(m.flushedSeq(), flushedSeq), number + 1, entries).writeTo(fs, target);
  }
}
