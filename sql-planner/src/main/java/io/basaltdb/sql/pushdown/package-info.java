/**
 * From SQL predicates to engine scans: key ranges from key-prefix predicates, pushed filters,
 * and the specs (scan, write, aggregate) that {@code exec} runs.
 */
package io.basaltdb.sql.pushdown;
