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

  /** A further connection that keeps no plans, so each statement is planned when run. */
  protected Connection connectionWithoutPlanCache() throws SQLException {
    java.util.Properties p = new java.util.Properties();
    p.setProperty("planCacheSize", "0");
    return BasaltConnections.open(db, p);
  }

  /**
   * Table T (ID INTEGER key, V VARCHAR(5), N BIGINT, D DECIMAL(6, 2)) with its sample rows
   * ({@link #fillSampleTable}).
   */
  protected static void createSampleTable(Statement s) throws SQLException {
    s.executeUpdate("CREATE TABLE t (id INTEGER NOT NULL PRIMARY KEY, v VARCHAR(5), "
        + "n BIGINT, d DECIMAL(6, 2))");
    fillSampleTable(s);
  }

  /** Rows 0 to 19 of table T: (i, 'vi', 10 i, i.25). */
  protected static void fillSampleTable(Statement s) throws SQLException {
    for (int i = 0; i < 20; i++) {
      s.executeUpdate("UPSERT INTO t VALUES (" + i + ", 'v" + i + "', " + i * 10 + ", " + i
          + ".25)");
    }
  }
}
