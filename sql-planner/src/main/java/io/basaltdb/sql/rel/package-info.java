/**
 * The Basalt convention's nodes: scans that run inside region scans, table-modify, lookup joins
 * and the converter to enumerable code; plans run without generated code
 * ({@link io.basaltdb.sql.rel.DirectExecution}, {@link io.basaltdb.sql.rel.BatchWrite}); and the
 * guards and checks inserted into generated code. Nodes know a table only as
 * {@link io.basaltdb.sql.rel.PlannedTable}; their rules are in {@code rel.rules}.
 */
package io.basaltdb.sql.rel;
