/**
 * The embedded JDBC driver ({@code jdbc:basalt:<dir>}, {@code jdbc:basalt:mem:<name>}), its
 * {@code DataSource}, and the databases a process holds open for its connections.
 */
package io.basaltdb.jdbc;
