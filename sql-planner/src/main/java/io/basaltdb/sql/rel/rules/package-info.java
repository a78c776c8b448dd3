/**
 * The planner rules of the Basalt convention: filters, projections, sorts, limits, aggregates
 * and AS OF pushed into {@code rel.BasaltScan}; lookup joins through indexes; join order and
 * the rewrites before it. {@link io.basaltdb.sql.rel.rules.BasaltRules#ALL} is what statement
 * preparation puts in its planners' context for the nodes to register.
 */
package io.basaltdb.sql.rel.rules;
