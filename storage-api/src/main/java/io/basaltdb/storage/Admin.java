package io.basaltdb.storage;

import java.util.List;

/**
 * Schema and maintenance operations of a {@link Storage}, in the manner of HBase's
 * {@code Admin}: namespaces, create (optionally pre-split) / alter / disable / enable /
 * truncate / drop tables, list tables and regions, split, flush and compact. Thread-safe.
 */
public interface Admin {
  void createNamespace(String namespace);

  /** Drops an empty namespace; {@code default} cannot be dropped. */
  void dropNamespace(String namespace);

  List<String> listNamespaces();

  void createTable(TableDescriptor desc);

  /**
   * Creates a table pre-split at {@code splitKeys} (strictly ascending, non-empty keys): a table
   * with n split keys starts with n + 1 regions.
   */
  void createTable(TableDescriptor desc, byte[][] splitKeys);

  /**
   * As {@link #createTable(TableDescriptor, byte[][])}, but with the storage's older delete rule
   * where it has one: a delete marker hides every put at or below its timestamp, whenever the
   * put is written (HBase's default rule, without NEW_VERSION_BEHAVIOR), so that of two writers
   * of a cell the one with the newer timestamp wins whatever the order their writes land in.
   * Whether the table has that rule ({@link Storage#markersHideLaterPuts(TableName)}); false
   * where the storage has no such rule (the embedded engine: markers hide only earlier puts),
   * the table then made as {@code createTable} makes it.
   */
  default boolean createTableHidingLaterPuts(TableDescriptor desc, byte[][] splitKeys) {
    createTable(desc, splitKeys);
    return false;
  }

  boolean tableExists(TableName name);

  /** Every table, in name order. */
  List<TableName> listTables();

  /** The tables of one namespace, in name order. */
  default List<TableName> listTables(String namespace) {
    List<TableName> out = new java.util.ArrayList<>();
    for (TableName t : listTables()) {
      if (t.namespace().equals(namespace)) {
        out.add(t);
      }
    }
    return out;
  }

  TableDescriptor describe(TableName name);

  boolean isEnabled(TableName name);

  /**
   * Disables a table: it refuses new writes ({@link TableDisabledException}) and keeps every
   * write it acknowledged.
   */
  void disableTable(TableName name);

  void enableTable(TableName name);

  /** Drops a table and its data (enabled or not). */
  void deleteTable(TableName name);

  /** Removes every row; keeps the descriptor and (if asked) the region boundaries. */
  void truncateTable(TableName name, boolean preserveSplits);

  void addFamily(TableName name, String family, FamilyOptions options);

  /** New settings apply to reads at once and to files written from now on (flush, compaction). */
  void modifyFamily(TableName name, String family, FamilyOptions options);

  /** Removes a family and its data. A table keeps at least one family. */
  void deleteFamily(TableName name, String family);

  /** The table's regions in key order, with their sizes and row estimates. */
  List<RegionInfo> regions(TableName name);

  /** How many regions the table has now: {@link #regions}' count, without their figures. */
  default int regionCount(TableName name) {
    return regions(name).size();
  }

  /**
   * The start row of each of the table's regions now, in key order (the first empty):
   * {@link #regions}' bounds without their figures; unmodifiable.
   */
  default List<byte[]> regionStartRows(TableName name) {
    return regions(name).stream().map(RegionInfo::startRow).toList();
  }

  /** Splits every region of the table that has data to split at its middle; returns how many. */
  int split(TableName name);

  void flush(TableName name);

  void compact(TableName name);

  /** Rewrites every store into one file, dropping deleted, expired and excess versions. */
  void majorCompact(TableName name);
}
