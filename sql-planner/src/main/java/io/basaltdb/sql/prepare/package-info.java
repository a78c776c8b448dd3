/**
 * How a statement becomes a plan. {@link io.basaltdb.sql.prepare.BasaltPrepare} routes each
 * statement to the first lane that takes it: transaction control, EXPLAIN ANALYZE, the plan
 * cache, plans shared across literal values, direct plans made without Calcite's validator, the
 * short path over one table, and last Calcite's own preparation with a cost-based planner whose
 * rules are registered on first use. Every reach into Calcite's private members is in {@link
 * io.basaltdb.sql.prepare.CalciteInternals}.
 */
package io.basaltdb.sql.prepare;
