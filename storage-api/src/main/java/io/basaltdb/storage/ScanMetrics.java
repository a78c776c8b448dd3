package io.basaltdb.storage;

import java.util.concurrent.atomic.AtomicLong;

/**
 * What the reads of one request did, for EXPLAIN ANALYZE: set one on a {@link Scan} or
 * {@link Get} ({@link ReadRequest#setMetrics}) and read it after the scanner closed. Each
 * region scanner counts in plain fields of its own as it goes (one increment per cell, kept on
 * always) and adds its totals here when it closes, so one object may serve the parallel scans
 * of a statement. Thread-safe.
 */
public final class ScanMetrics {
  /** Region scanners opened (a reverse scan opens one per row it steps back to). */
  public final AtomicLong regions = new AtomicLong();
  /** Positionings of the region scanners: one per scanner, one per filter hint followed. */
  public final AtomicLong seeks = new AtomicLong();
  public final AtomicLong rowsReturned = new AtomicLong();
  public final AtomicLong cellsReturned = new AtomicLong();
  /** Cells stepped over in memstores and in files (versions, deletes and filtered ones too). */
  public final AtomicLong memstoreCells = new AtomicLong();
  public final AtomicLong fileCells = new AtomicLong();
  /** Files read, and files passed over by their time range or bloom filter. */
  public final AtomicLong filesRead = new AtomicLong();
  public final AtomicLong filesSkippedByTime = new AtomicLong();
  public final AtomicLong filesSkippedByBloom = new AtomicLong();
  /** Index and data blocks found in the block cache, and read from files. */
  public final AtomicLong blocksFromCache = new AtomicLong();
  public final AtomicLong blocksFromFile = new AtomicLong();
  /** Bytes LZ4 gave back for the blocks read from files. */
  public final AtomicLong bytesDecompressed = new AtomicLong();
  /** Aggregates a storage computed where the rows are: one per region and aggregate. */
  public final AtomicLong regionAggregates = new AtomicLong();
  private volatile boolean storeReadsCounted = true;

  /**
   * Says that the storage counts only regions, rows and cells returned (HBase: its region
   * servers keep their reads to themselves), so the other counts are unknown, not zero.
   */
  public void storeReadsNotCounted() {
    storeReadsCounted = false;
  }

  public boolean storeReadsCounted() {
    return storeReadsCounted;
  }

  /** Adds {@code other}'s counts to these (a statement's scans summed). */
  public void add(ScanMetrics other) {
    regions.addAndGet(other.regions.get());
    seeks.addAndGet(other.seeks.get());
    rowsReturned.addAndGet(other.rowsReturned.get());
    cellsReturned.addAndGet(other.cellsReturned.get());
    memstoreCells.addAndGet(other.memstoreCells.get());
    fileCells.addAndGet(other.fileCells.get());
    filesRead.addAndGet(other.filesRead.get());
    filesSkippedByTime.addAndGet(other.filesSkippedByTime.get());
    filesSkippedByBloom.addAndGet(other.filesSkippedByBloom.get());
    blocksFromCache.addAndGet(other.blocksFromCache.get());
    blocksFromFile.addAndGet(other.blocksFromFile.get());
    bytesDecompressed.addAndGet(other.bytesDecompressed.get());
    regionAggregates.addAndGet(other.regionAggregates.get());
    if (!other.storeReadsCounted) {
      storeReadsCounted = false;
    }
  }

  @Override
  public String toString() {
    return "regions=" + regions + " seeks=" + seeks + " rows=" + rowsReturned + " cells="
        + cellsReturned + " memstoreCells=" + memstoreCells + " fileCells=" + fileCells
        + " files=" + filesRead + " skippedByTime=" + filesSkippedByTime + " skippedByBloom="
        + filesSkippedByBloom + " blocksCached=" + blocksFromCache + " blocksRead="
        + blocksFromFile + " bytesDecompressed=" + bytesDecompressed;
  }
}
