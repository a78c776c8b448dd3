/**
 * Column defaults and CHECK constraints: kept in the catalog as SQL text, parsed back and applied
 * to the rows a write makes.
 */
package io.basaltdb.sql.constraint;
