package io.basaltdb.storage;

import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * An open wide-column storage: the seam between Basalt's SQL layer and what keeps its rows. Two
 * implementations: the embedded engine ({@link Database}) and an Apache HBase cluster reached
 * through HBase's client (module {@code hbase-storage}). Both speak this package's HBase-shaped
 * vocabulary ({@link Put}, {@link Get}, {@link Scan}, {@link Result}, ...).
 *
 * <p>What the two cannot both promise is asked, not assumed: {@link #snapshot()} may give no
 * snapshot, {@link #atomicAcrossRows()} says whether {@link #mutateAtomically} exists. A filter
 * set on a read ({@link io.basaltdb.storage.filter.Filter}) is evaluated in process by the
 * embedded engine; a backend that cannot ship it to its servers evaluates it on each row it
 * fetched, so results are exact either way. Thread-safe.
 */
public interface Storage extends AutoCloseable {
  /** Where this storage is, for messages: a directory, or a cluster's ZooKeeper quorum. */
  String location();

  Admin admin();

  /** A handle on a table (which need not exist yet: its operations then fail). */
  Table table(TableName name);

  default Table table(String qualifiedName) {
    return table(TableName.of(qualifiedName));
  }

  /**
   * One consistent cut of every table as of now, for reads ({@link ReadRequest#setSnapshot});
   * close it when done. Null when this storage keeps no such cut (each row is still read
   * atomically).
   */
  ReadSnapshot snapshot();

  /** Returns once every write acknowledged so far, ASYNC ones included, is durable. */
  void sync();

  /**
   * State a layer above keeps for this open storage (the SQL layer's catalog version, plan
   * cache and worker threads), one object per {@code type}, made by {@code create} on first use
   * and gone with the storage: nothing static outlives it or mixes two storages. One that is
   * {@link AutoCloseable} is closed when the storage closes, before the storage's own parts (a
   * failure to close it is ignored: the storage closes whatever it says).
   */
  <T> T extension(Class<T> type, Supplier<? extends T> create);

  /**
   * Whether other processes may change this storage's tables at the same time (an HBase
   * cluster): state derived from them, such as the SQL catalog's version, is then kept in the
   * storage, not only in this process.
   */
  default boolean sharedByProcesses() {
    return false;
  }

  /**
   * A transaction over this storage: the storage's own (the embedded engine's: a snapshot plus
   * its own writes, applied as one at commit), or, where it keeps none ({@link
   * #keepsTransactions} false: HBase, where one row is atomic, not several), one kept in the
   * client (the engine's {@code ClientTransaction}: own writes seen, applied row by row at
   * commit). A storage offering neither refuses.
   *
   * @throws UnsupportedOperationException when the storage offers no transactions
   */
  default StorageTransaction begin(StorageTransaction.Isolation isolation) {
    throw new UnsupportedOperationException(location() + " offers no transactions");
  }

  /**
   * Whether {@link #begin} gives transactions of the storage's own: one snapshot, an atomic
   * commit, write conflicts refused.
   */
  default boolean keepsTransactions() {
    return false;
  }

  /** Whether this is a transaction's view of a storage (its writes wait for its commit). */
  default boolean inTransaction() {
    return false;
  }

  /**
   * Whether a delete marker hides every put of its column or family at or below its timestamp,
   * even one written after it, in the tables this storage makes now (HBase's rule, unless a
   * family keeps NEW_VERSION_BEHAVIOR, which Basalt now sets); false for the embedded engine,
   * where a marker covers only earlier writes.
   */
  default boolean markersHideLaterPuts() {
    return false;
  }

  /**
   * {@link #markersHideLaterPuts()} for one table: over HBase, a table made before Basalt made
   * its families with NEW_VERSION_BEHAVIOR keeps HBase's rule.
   */
  default boolean markersHideLaterPuts(TableName table) {
    return markersHideLaterPuts();
  }

  /** Whether {@link #mutateAtomically} and {@link #mutateAfterRead} are available. */
  boolean atomicAcrossRows();

  /**
   * Applies puts and deletes to rows of one or more tables as one write, atomically.
   *
   * @throws UnsupportedOperationException where {@link #atomicAcrossRows()} is false
   */
  void mutateAtomically(List<RowChange> changes);

  /**
   * A read-modify-write led by one row, atomic with the other rows it writes (a row and its
   * index entries): under the row's lock {@code plan} sees its current cells and returns the
   * changes to make, or none.
   *
   * @throws UnsupportedOperationException where {@link #atomicAcrossRows()} is false
   */
  void mutateAfterRead(Table table, byte[] row, Durability durability,
      Function<Result, List<RowChange>> plan);

  /**
   * Copies the whole database into {@code dest} (new or empty) while writers go on: every write
   * acknowledged before the backup's cut is in the copy, none begun after it. {@code previous}:
   * an earlier complete backup whose unchanged files the copy may link (null: none);
   * {@code copyOnly}: never hard-link the database's own files.
   *
   * @throws UnsupportedOperationException where the storage has its own tool (HBase: snapshots),
   *     saying which
   */
  default BackupReport backup(java.nio.file.Path dest, java.nio.file.Path previous,
      boolean copyOnly) {
    throw new UnsupportedOperationException(location() + " takes no backups");
  }

  /** Releases what this storage holds open (files and locks, or connections). */
  @Override
  void close();

  /** Closes those of {@code extensions} that are {@link AutoCloseable}, ignoring failures. */
  static void closeExtensions(Iterable<Object> extensions) {
    for (Object e : extensions) {
      if (e instanceof AutoCloseable c) {
        try {
          c.close();
        } catch (Exception ignored) {
          // the storage closes whatever an extension says
        }
      }
    }
  }
}
