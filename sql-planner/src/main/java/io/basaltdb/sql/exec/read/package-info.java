/**
 * Where a scan is executed: region scans with pushed ranges, filters and projections
 * ({@link io.basaltdb.sql.exec.read.ScanExecutor}), parallel and salted reads, lookup joins,
 * index key ranges, aggregates in storage and on the client.
 */
package io.basaltdb.sql.exec.read;
