/**
 * The read path: merging iterators over memstores and files, and the version, TTL and
 * tombstone rules ({@link io.basaltdb.engine.read.CellResolver}) shared with compaction.
 */
package io.basaltdb.engine.read;
