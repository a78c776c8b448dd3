/**
 * Basalt's SQL layer over the storage seam ({@code io.basaltdb.storage}). The root holds only
 * what every room shares: the connection properties, the process-wide switches and the error a
 * user caused ({@link io.basaltdb.sql.SqlStateException}). The rooms, from the bottom up:
 * {@code type} (column types and the row-key encoding), {@code catalog} (SQL table definitions
 * kept in storage), {@code pushdown} (what a scan or write is asked to do), {@code exec} (scans,
 * aggregates and writes against storage), {@code index} (secondary indexes), {@code constraint}
 * (defaults and checks), {@code schema} (the catalog seen by Calcite as schemas and tables),
 * {@code rel} (the Basalt convention's nodes and rules), {@code parser} and {@code ddl} (the
 * grammar and the DDL it runs), {@code prepare} (how a statement becomes a plan: the lanes from
 * the plan cache to Calcite's planner) and {@code jdbc} (the embedded connection and its meta).
 */
package io.basaltdb.sql;
