/**
 * Execution of planned scans, aggregates and writes against storage: what the generated code
 * of a Basalt plan calls, described by the specs of {@code pushdown}, never by plan nodes.
 * {@link io.basaltdb.sql.exec.TableRuns} is the door from plans to the executors of
 * {@code exec.read} and {@code exec.write}; the connection's and statement's transactions are
 * here; what a statement runs with is in {@code exec.context}.
 */
package io.basaltdb.sql.exec;
