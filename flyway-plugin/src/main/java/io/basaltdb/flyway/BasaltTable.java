package io.basaltdb.flyway;

import java.sql.SQLException;
import org.flywaydb.core.internal.database.base.Table;
import org.flywaydb.core.internal.jdbc.JdbcTemplate;

/**
 * A Basalt table to Flyway. Locking the schema history table is a no-op: Basalt has no
 * {@code SELECT ... FOR UPDATE}; two processes migrating one database at once are not
 * serialized (an embedded database has one process; a server's clients should migrate from
 * one place).
 */
public class BasaltTable extends Table<BasaltDatabase, BasaltSchema> {
  BasaltTable(JdbcTemplate jdbcTemplate, BasaltDatabase database, BasaltSchema schema,
      String name) {
    super(jdbcTemplate, database, schema, name);
  }

  @Override
  protected boolean doExists() throws SQLException {
    return jdbcTemplate.queryForInt("SELECT COUNT(*) FROM INFORMATION_SCHEMA.TABLES"
        + " WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?", schema.getName(), name) > 0;
  }

  @Override
  protected void doLock() {}

  @Override
  protected void doDrop() throws SQLException {
    jdbcTemplate.execute("DROP TABLE " + database.quote(schema.getName(), name) + " CASCADE");
  }
}
