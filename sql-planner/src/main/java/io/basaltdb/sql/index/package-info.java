/**
 * Secondary indexes: their definitions in the SQL catalog, their key encoding, their
 * maintenance atomic with each base row, their online build and their verification
 * (design: {@code sql-planner/doc/indexes.md}).
 */
package io.basaltdb.sql.index;
