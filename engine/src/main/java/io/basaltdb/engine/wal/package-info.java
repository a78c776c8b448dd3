/**
 * The database-wide write-ahead log ({@code engine/doc/wal-format.md}): segments of
 * checksummed records, group commit, per-write durability, replay that drops a torn tail
 * and refuses other damage.
 */
package io.basaltdb.engine.wal;
