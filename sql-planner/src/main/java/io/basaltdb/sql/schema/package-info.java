/**
 * The catalog seen by Calcite: one storage namespace as a schema ({@link
 * io.basaltdb.sql.schema.BasaltSchema}), its SQL-defined tables, raw storage tables, each table's
 * version history and {@code INFORMATION_SCHEMA}.
 */
package io.basaltdb.sql.schema;
