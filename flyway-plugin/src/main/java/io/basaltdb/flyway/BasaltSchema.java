package io.basaltdb.flyway;

import java.sql.SQLException;
import java.util.List;
import org.flywaydb.core.internal.database.base.Schema;
import org.flywaydb.core.internal.database.base.Table;
import org.flywaydb.core.internal.jdbc.JdbcTemplate;

/**
 * A Basalt schema to Flyway, read from INFORMATION_SCHEMA; cleaned by dropping its views,
 * tables (CASCADE: their foreign keys go) and sequences.
 */
public class BasaltSchema extends Schema<BasaltDatabase, BasaltTable> {
  BasaltSchema(JdbcTemplate jdbcTemplate, BasaltDatabase database, String name) {
    super(jdbcTemplate, database, name);
  }

  @Override
  protected boolean doExists() throws SQLException {
    return jdbcTemplate.queryForInt("SELECT COUNT(*) FROM INFORMATION_SCHEMA.SCHEMATA"
        + " WHERE SCHEMA_NAME = ?", name) > 0;
  }

  @Override
  protected boolean doEmpty() throws SQLException {
    return jdbcTemplate.queryForInt("SELECT COUNT(*) FROM INFORMATION_SCHEMA.TABLES"
        + " WHERE TABLE_SCHEMA = ?", name) == 0
        && jdbcTemplate.queryForInt("SELECT COUNT(*) FROM INFORMATION_SCHEMA.SEQUENCES"
        + " WHERE SEQUENCE_SCHEMA = ?", name) == 0;
  }

  @Override
  protected void doCreate() throws SQLException {
    jdbcTemplate.execute("CREATE SCHEMA " + database.quote(name));
  }

  @Override
  protected void doDrop() throws SQLException {
    jdbcTemplate.execute("DROP SCHEMA " + database.quote(name) + " CASCADE");
  }

  @Override
  protected void doClean() throws SQLException {
    for (String view : names("TABLE_NAME", "TABLES", "TABLE_SCHEMA", "'VIEW'")) {
      jdbcTemplate.execute("DROP VIEW " + database.quote(name, view));
    }
    for (String table : names("TABLE_NAME", "TABLES", "TABLE_SCHEMA", "'BASE TABLE'")) {
      jdbcTemplate.execute("DROP TABLE IF EXISTS " + database.quote(name, table) + " CASCADE");
    }
    for (String seq : jdbcTemplate.queryForStringList("SELECT SEQUENCE_NAME FROM"
        + " INFORMATION_SCHEMA.SEQUENCES WHERE SEQUENCE_SCHEMA = ?", name)) {
      jdbcTemplate.execute("DROP SEQUENCE IF EXISTS " + database.quote(name, seq));
    }
  }

  private List<String> names(String column, String view, String schemaColumn, String type)
      throws SQLException {
    return jdbcTemplate.queryForStringList("SELECT " + column + " FROM INFORMATION_SCHEMA."
        + view + " WHERE " + schemaColumn + " = ? AND TABLE_TYPE = " + type, name);
  }

  @Override
  protected BasaltTable[] doAllTables() throws SQLException {
    return names("TABLE_NAME", "TABLES", "TABLE_SCHEMA", "'BASE TABLE'").stream()
        .map(t -> new BasaltTable(jdbcTemplate, database, this, t)).toArray(BasaltTable[]::new);
  }

  @Override
  public Table getTable(String tableName) {
    return new BasaltTable(jdbcTemplate, database, this, tableName);
  }
}
