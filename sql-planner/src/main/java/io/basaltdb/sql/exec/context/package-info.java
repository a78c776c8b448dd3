/**
 * What a statement runs with, below its readers and writers: the connection's settings, the
 * statement's snapshot, its memory budget and cancel flag, EXPLAIN ANALYZE's counters, the pool
 * of parallel work and the row a computed expression reads.
 */
package io.basaltdb.sql.exec.context;
