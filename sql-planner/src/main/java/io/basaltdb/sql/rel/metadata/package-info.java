/**
 * What the planner asks of Basalt's nodes beyond their cost: row counts of joins through keys
 * and indexes, and which scans return at most one row per key.
 */
package io.basaltdb.sql.rel.metadata;
