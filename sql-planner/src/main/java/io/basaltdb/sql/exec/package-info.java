/**
 * Execution of planned scans, aggregates and writes against the engine: what the generated
 * code of a Basalt plan calls, described by the specs of {@code pushdown}, never by plan nodes.
 */
package io.basaltdb.sql.exec;
