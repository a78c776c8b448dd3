/**
 * Push-down predicates evaluated inside region scans, after the version rules: row filters
 * that can seek ahead to the next row worth reading, cell filters, whole-row filters, and
 * {@link io.basaltdb.storage.filter.FilterList} to combine them with AND/OR.
 */
package io.basaltdb.storage.filter;
