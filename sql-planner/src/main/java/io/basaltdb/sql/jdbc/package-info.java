/**
 * The JDBC plumbing of a Basalt connection, used only by the driver (jdbc-driver):
 * {@link io.basaltdb.sql.jdbc.BasaltConnections} opens one; its JDBC objects are Avatica's,
 * subclassed for SQLStates and bound-value checks ({@link io.basaltdb.sql.jdbc.BasaltJdbcFactory});
 * {@link io.basaltdb.sql.jdbc.BasaltMeta} is what Avatica calls for it (statements through
 * Calcite, transactions, batches, primary keys). Design: jdbc-driver/doc/jdbc-design.md.
 * Nothing else in sql-planner imports this package.
 */
package io.basaltdb.sql.jdbc;
