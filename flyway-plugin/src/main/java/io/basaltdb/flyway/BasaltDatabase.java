package io.basaltdb.flyway;

import java.sql.SQLException;
import org.flywaydb.core.api.configuration.Configuration;
import org.flywaydb.core.internal.database.base.Database;
import org.flywaydb.core.internal.database.base.Table;
import org.flywaydb.core.internal.jdbc.JdbcConnectionFactory;
import org.flywaydb.core.internal.jdbc.StatementInterceptor;

/**
 * A Basalt database to Flyway: its schema history table (plain SQL Basalt keeps), booleans,
 * and DDL that commits (Basalt's DDL ends an open transaction first, as H2's and MySQL's do).
 */
public class BasaltDatabase extends Database<BasaltConnection> {
  public BasaltDatabase(Configuration configuration, JdbcConnectionFactory connections,
      StatementInterceptor interceptor) {
    super(configuration, connections, interceptor);
  }

  @Override
  protected BasaltConnection doGetConnection(java.sql.Connection connection) {
    return new BasaltConnection(this, connection);
  }

  /** Every Basalt release this plugin ships with is supported. */
  @Override
  public void ensureSupported(Configuration configuration) {}

  @Override
  public String getRawCreateScript(Table table, boolean baseline) {
    return "CREATE TABLE " + table + " (\n"
        + "  \"installed_rank\" INT NOT NULL PRIMARY KEY,\n"
        + "  \"version\" VARCHAR(50),\n"
        + "  \"description\" VARCHAR(200) NOT NULL,\n"
        + "  \"type\" VARCHAR(20) NOT NULL,\n"
        + "  \"script\" VARCHAR(1000) NOT NULL,\n"
        + "  \"checksum\" INT,\n"
        + "  \"installed_by\" VARCHAR(100) NOT NULL,\n"
        + "  \"installed_on\" TIMESTAMP(3) DEFAULT CURRENT_TIMESTAMP NOT NULL,\n"
        + "  \"execution_time\" INT NOT NULL,\n"
        + "  \"success\" BOOLEAN NOT NULL\n"
        + ")" + (baseline ? ";\n" + getBaselineStatement(table) : "");
  }

  @Override
  protected String doGetCurrentUser() throws SQLException {
    String user = getMainConnection().getJdbcConnection().getMetaData().getUserName();
    return user == null || user.isEmpty() ? "basalt" : user;
  }

  @Override
  public boolean supportsDdlTransactions() {
    return false;
  }

  @Override
  public String getBooleanTrue() {
    return "TRUE";
  }

  @Override
  public String getBooleanFalse() {
    return "FALSE";
  }

  @Override
  public boolean catalogIsSchema() {
    return false;
  }
}
