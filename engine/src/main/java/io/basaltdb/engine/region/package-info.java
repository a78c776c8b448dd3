/**
 * A region: a row range with one store per family, MVCC read points, row locks, the write
 * path (WAL then memstore), flush and compaction triggers, and reads across families.
 */
package io.basaltdb.engine.region;
