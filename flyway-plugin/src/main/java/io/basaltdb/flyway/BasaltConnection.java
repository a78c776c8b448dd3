package io.basaltdb.flyway;

import java.sql.SQLException;
import org.flywaydb.core.internal.database.base.Connection;
import org.flywaydb.core.internal.database.base.Schema;

/** A Flyway connection to Basalt: its current schema is JDBC's ({@code getSchema}). */
public class BasaltConnection extends Connection<BasaltDatabase> {
  BasaltConnection(BasaltDatabase database, java.sql.Connection connection) {
    super(database, connection);
  }

  @Override
  protected String getCurrentSchemaNameOrSearchPath() throws SQLException {
    return getJdbcConnection().getSchema();
  }

  @Override
  public void doChangeCurrentSchemaOrSearchPathTo(String schema) throws SQLException {
    getJdbcConnection().setSchema(schema);
  }

  @Override
  public Schema getSchema(String name) {
    return new BasaltSchema(jdbcTemplate, database, name);
  }
}
