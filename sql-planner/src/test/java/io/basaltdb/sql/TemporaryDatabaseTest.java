package io.basaltdb.sql;

import io.basaltdb.engine.Database;
import io.basaltdb.engine.EngineOptions;
import io.basaltdb.sql.jdbc.BasaltConnections;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * A test on a fresh temporary database with one connection and one statement, opened before
 * each test (before a subclass's own set-up) and closed after it.
 */
public abstract class TemporaryDatabaseTest {
  protected Database db;
  protected Connection c;
  protected Statement st;

  @BeforeEach
  void openTemporaryDatabase() throws SQLException {
    db = Database.openTemporary(EngineOptions.defaults());
    c = BasaltConnections.open(db);
    st = c.createStatement();
  }

  @AfterEach
  void closeTemporaryDatabase() throws SQLException {
    c.close();
    db.close();
  }
}
