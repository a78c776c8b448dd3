package io.basaltdb.storage;

/**
 * How durable a write is when the call returns.
 *
 * <ul>
 *   <li>{@link #SYNC}: the write-ahead log record is fsynced before the call returns
 *       (concurrent writers share one fsync: group commit), and with it every record logged
 *       before it. A SYNC read-modify-write that writes nothing (a check-and-mutate whose check
 *       failed) still syncs the log: what it saw, perhaps an ASYNC write, is durable when it
 *       returns.
 *   <li>{@link #ASYNC}: the record is written to the log and fsynced by a background
 *       task within {@code EngineOptions.asyncSyncIntervalMillis}.
 *   <li>{@link #SKIP}: no log record; the write lives only in the memstore until flushed.
 * </ul>
 */
public enum Durability {
  SYNC,
  ASYNC,
  SKIP
}
