/** From SQL predicates to engine scans: key ranges from key-prefix predicates. */
package io.basaltdb.sql.pushdown;
