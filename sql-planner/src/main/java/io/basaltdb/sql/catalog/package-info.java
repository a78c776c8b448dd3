/** SQL metadata kept in the engine: table definitions in the system table. */
package io.basaltdb.sql.catalog;
