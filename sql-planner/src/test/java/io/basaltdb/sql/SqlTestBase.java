package io.basaltdb.sql;

import io.basaltdb.engine.Database;
import io.basaltdb.engine.EngineOptions;
import io.basaltdb.sql.jdbc.BasaltConnections;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * A temporary database and a Basalt SQL connection to it for each test ({@link #db},
 * {@link #c}), with helpers to run an update and to read a query's rows as text. A subclass's
 * own {@code @BeforeEach} runs after the database is open.
 */
public abstract class SqlTestBase {
  protected Database db;
  protected Connection c;

  @BeforeEach
  protected void openDatabase() throws Exception {
    db = Database.openTemporary(EngineOptions.defaults());
    c = BasaltConnections.open(db);
  }

  @AfterEach
  protected void closeDatabase() throws Exception {
    c.close();
    db.close();
  }

  /** Runs a statement on {@link #c}: its update count. */
  protected int update(String sql) throws SQLException {
    try (Statement st = c.createStatement()) {
      return st.executeUpdate(sql);
    }
  }

  /** A query's rows on {@link #c}, as text ({@link SqlTestSupport#rows}). */
  protected List<String> rows(String sql) throws SQLException {
    return SqlTestSupport.rows(c, sql);
  }
}
