/**
 * The JDBC plumbing of a Basalt connection, used only by the driver (jdbc-driver):
 * {@link io.basaltdb.sql.jdbc.BasaltConnections} opens one, {@link io.basaltdb.sql.jdbc.BasaltMeta}
 * is what Avatica calls for it (transactions, batches, primary keys), and
 * {@link io.basaltdb.sql.jdbc.JdbcProxies} gives its errors their SQLStates. Nothing else in
 * sql-planner imports this package.
 */
package io.basaltdb.sql.jdbc;
