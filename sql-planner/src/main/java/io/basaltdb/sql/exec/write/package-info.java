/**
 * Where a write is made: each row of an INSERT, UPSERT, UPDATE or DELETE applied atomically
 * ({@link io.basaltdb.sql.exec.write.WriteExecutor}), with its counters, ON DUPLICATE KEY,
 * NOT NULL checks, map cells and the literals assigned. Durability is the storage's.
 */
package io.basaltdb.sql.exec.write;
