/** Command-line tools over JDBC: the SQL tour ({@code bin/basalt demo}) and admin commands. */
package io.basaltdb.jdbc.tool;
