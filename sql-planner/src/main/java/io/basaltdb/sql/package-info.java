/**
 * Basalt's Calcite adapter: namespaces as schemas, SQL-defined tables (from the SQL catalog)
 * and raw engine tables as relational tables.
 */
package io.basaltdb.sql;
