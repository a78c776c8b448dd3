/**
 * The Basalt convention: scan and table-modify nodes, the rules that push filters,
 * projections, limits, sorts and aggregates into region scans, and batched writes.
 */
package io.basaltdb.sql.rel;
