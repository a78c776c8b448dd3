/** Executes Basalt's DDL against the engine and the SQL catalog. */
package io.basaltdb.sql.ddl;
