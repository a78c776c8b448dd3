package io.basaltdb.sql.ddl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basaltdb.engine.Database;
import io.basaltdb.engine.EngineOptions;
import io.basaltdb.storage.TableName;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** DDL and INSERT through a Calcite connection with Basalt's parser and DDL executor. */
class DdlAndInsertTest {
  Database db;
  Connection conn;

  @BeforeEach
  void setUp() throws Exception {
    db = Database.openTemporary(EngineOptions.defaults());
    conn = connect();
  }

  private Connection connect() throws SQLException {
    return io.basaltdb.sql.jdbc.BasaltConnections.open(db);
  }

  @AfterEach
  void tearDown() throws Exception {
    conn.close();
    db.close();
  }

  private int update(String sql) throws SQLException {
    try (Statement st = conn.createStatement()) {
      return st.executeUpdate(sql);
    }
  }

  private List<String> query(Connection c, String sql) throws SQLException {
    return io.basaltdb.sql.SqlTestSupport.rows(c, sql);
  }


  @Test
  void createInsertSelectDrop() throws Exception {
    update("CREATE TABLE pages (id BIGINT NOT NULL PRIMARY KEY, f.name VARCHAR(40), "
        + "f.hits BIGINT, g.score DOUBLE) VERSIONS=3, g.TTL=86400, COMPRESSION='LZ4' "
        + "SPLIT ON (100, 200)");
    var desc = db.admin().describe(TableName.of("PAGES"));
    assertEquals(List.of("F", "G"), List.copyOf(desc.families().keySet()));
    assertEquals(3, desc.families().get("F").maxVersions());
    assertEquals(86400, desc.families().get("G").ttlSeconds());
    assertEquals(0, desc.families().get("F").ttlSeconds());
    assertEquals(3, db.admin().regions(TableName.of("PAGES")).size());

    assertEquals(3, update("INSERT INTO pages VALUES (1, 'one', 10, 0.5), (150, 'mid', 20, NULL), "
        + "(250, NULL, NULL, NULL)"));
    assertEquals(List.of("1|one|10|0.5", "150|mid|20|null", "250|null|null|null"),
        query(conn, "SELECT * FROM pages ORDER BY id"));
    SQLException dup = assertThrows(SQLException.class,
        () -> update("INSERT INTO pages (id, name) VALUES (150, 'again')"));
    assertEquals("23505", io.basaltdb.sql.jdbc.SqlErrors.sqlState(dup));
    assertEquals("42000", io.basaltdb.sql.jdbc.SqlErrors.sqlState(assertThrows(SQLException.class,
        () -> update("INSERT INTO nosuch VALUES (1)"))));
    assertEquals("42000", io.basaltdb.sql.jdbc.SqlErrors.sqlState(assertThrows(SQLException.class,
        () -> update("CREATE TABLE broken (id INTEGER PRIMARY KEY,)"))));
    assertEquals("22023", io.basaltdb.sql.jdbc.SqlErrors.sqlState(assertThrows(SQLException.class,
        () -> update("CREATE TABLE bad2 (id INTEGER PRIMARY KEY, f.x INTEGER) VERSIONS=0"))));
    assertTrue(String.valueOf(dup.getMessage()).contains("duplicate primary key")
        || String.valueOf(dup.getCause()).contains("duplicate primary key"), dup.toString());
    assertEquals(List.of("mid"), query(conn, "SELECT name FROM pages WHERE id = 150"));

    try (Connection other = connect()) {
      assertEquals(List.of("3"), query(other, "SELECT COUNT(*) FROM pages"),
          "another connection sees the table and its rows");
    }
    update("CREATE TABLE copy (id BIGINT NOT NULL PRIMARY KEY, f.name VARCHAR(40))");
    assertEquals(2, update("INSERT INTO copy SELECT id, name FROM pages WHERE name IS NOT NULL"));
    assertEquals(List.of("1|one", "150|mid"), query(conn, "SELECT * FROM copy ORDER BY id"));
    assertEquals(1, update("DELETE FROM copy WHERE name LIKE 'o%'"), "a non-key predicate");
    assertEquals(List.of("150|mid"), query(conn, "SELECT * FROM copy"));
    assertEquals(1, update("DELETE FROM pages WHERE id = 150"));
    assertEquals(List.of("1", "250"), query(conn, "SELECT id FROM pages ORDER BY id"));
    assertEquals(2, update("DELETE FROM pages WHERE id > 0"));
    assertEquals(List.of("0"), query(conn, "SELECT COUNT(*) FROM pages"));
    assertEquals(1, update("INSERT INTO pages (id) VALUES (150)"), "a deleted key can be inserted again");
    update("DROP TABLE pages");
    assertTrue(!db.admin().tableExists(TableName.of("PAGES")));
  }

  @Test
  void readTimestampPinsReadsToAPointInTime() throws Exception {
    update("CREATE TABLE hist (id INTEGER NOT NULL PRIMARY KEY, f.v VARCHAR) VERSIONS=5");
    update("INSERT INTO hist VALUES (1, 'old')");
    long between = System.currentTimeMillis();
    Thread.sleep(5);
    // a newer version written through the engine (UPSERT is still to come)
    byte[] key = new io.basaltdb.sql.catalog.SqlCatalog(db).get(TableName.of("HIST")).keyCodec()
        .encode(1);
    db.table("HIST").put(new io.basaltdb.storage.Put(key)
        .addColumn("F".getBytes(), "V".getBytes(), "new".getBytes()));
    assertEquals(List.of("1|new"), query(conn, "SELECT * FROM hist"));
    List<String> history = query(conn,
        "SELECT id, column_name, val FROM \"HIST$HISTORY\" ORDER BY version_ts DESC");
    assertEquals(List.of("1|V|new", "1|V|old"), history, "every stored version, newest first");
    java.util.Properties p = new java.util.Properties();
    p.setProperty("readTimestamp", Long.toString(between));
    try (Connection past = io.basaltdb.sql.jdbc.BasaltConnections.open(db, p)) {
      assertEquals(List.of("1|old"), query(past, "SELECT * FROM hist"));
    }
    p.setProperty("readTimestamp", "yesterday");
    // refused when connecting (22023), not at the first read
    SQLException e = assertThrows(SQLException.class,
        () -> io.basaltdb.sql.jdbc.BasaltConnections.open(db, p).close());
    assertEquals("22023", e.getSQLState());
    assertTrue(e.getMessage().contains("readTimestamp"), e.toString());
  }

  @Test
  void alterTableAddsAndDropsColumns() throws Exception {
    update("CREATE TABLE t (id INTEGER NOT NULL PRIMARY KEY, f.a VARCHAR, g.b INTEGER)");
    update("INSERT INTO t VALUES (1, 'x', 10), (2, NULL, NULL)");
    update("ALTER TABLE t ADD h.c BIGINT");
    assertEquals(List.of("F", "G", "H"),
        List.copyOf(db.admin().describe(TableName.of("T")).families().keySet()));
    update("INSERT INTO t VALUES (3, 'z', 30, 300)");
    assertEquals(List.of("1|x|10|null", "2|null|null|null", "3|z|30|300"),
        query(conn, "SELECT * FROM t ORDER BY id"));
    update("ALTER TABLE t DROP COLUMN a");
    assertEquals(List.of("1|10|null", "2|null|null", "3|30|300"),
        query(conn, "SELECT * FROM t ORDER BY id"), "rows stay, including the all-NULL one");
    assertEquals("42000", io.basaltdb.sql.jdbc.SqlErrors.sqlState(assertThrows(SQLException.class,
        () -> query(conn, "SELECT a FROM t"))));
    assertThrows(SQLException.class, () -> update("ALTER TABLE t DROP COLUMN id"));
    assertThrows(SQLException.class, () -> update("ALTER TABLE t ADD b INTEGER"));
    assertThrows(SQLException.class, () -> update("ALTER TABLE t ADD d INTEGER NOT NULL"));
  }

  @Test
  void viewsAreStoredAndExpanded() throws Exception {
    update("CREATE TABLE items (id INTEGER NOT NULL PRIMARY KEY, f.name VARCHAR, f.price INTEGER)");
    update("INSERT INTO items VALUES (1, 'a', 10), (2, 'b', 20), (3, 'c', 30)");
    update("CREATE VIEW dear AS SELECT id, name FROM items WHERE price >= 20");
    assertEquals(List.of("2|b", "3|c"), query(conn, "SELECT * FROM dear ORDER BY id"));
    update("CREATE VIEW named (k, label) AS SELECT id, name FROM items");
    assertEquals(List.of("a"), query(conn, "SELECT label FROM named WHERE k = 1"));
    try (Connection other = connect()) {
      assertEquals(List.of("2"), query(other, "SELECT COUNT(*) FROM dear"),
          "views live in the catalog: another connection sees them");
    }
    assertThrows(SQLException.class, () -> update("CREATE VIEW dear AS SELECT 1 FROM items"));
    update("CREATE OR REPLACE VIEW dear AS SELECT id FROM items WHERE price > 25");
    assertEquals(List.of("3"), query(conn, "SELECT * FROM dear"));
    update("DROP VIEW dear");
    assertThrows(SQLException.class, () -> query(conn, "SELECT * FROM dear"));
    update("DROP VIEW IF EXISTS dear");
  }

  @Test
  void compositeDescendingKeysAndSchemas() throws Exception {
    update("CREATE SCHEMA web");
    update("CREATE TABLE web.clicks (host VARCHAR NOT NULL, ts BIGINT NOT NULL, n INTEGER, "
        + "CONSTRAINT pk PRIMARY KEY (host, ts DESC)) SALT_BUCKETS=3");
    assertEquals(3, db.admin().regions(TableName.of("WEB:CLICKS")).size());
    update("INSERT INTO web.clicks VALUES ('a', 1, 1), ('a', 3, 3), ('b', 2, 2), ('a', 2, 2)");
    assertEquals(List.of("a|3", "a|2", "a|1", "b|2"),
        query(conn, "SELECT host, ts FROM web.clicks ORDER BY host, ts DESC"));
    update("CREATE TABLE nokey (a INTEGER)"); // a hidden row key (DmlTest)
    assertThrows(SQLException.class,
        () -> update("CREATE TABLE bad (id INTEGER PRIMARY KEY, f.x INTEGER) COMPRESSION='ZIP'"));
  }

  @Test
  void tableOptionsAreValidatedByName() throws Exception {
    String[][] bad = {
        {"VERSIONS=0", "VERSIONS"}, {"TTL=-5", "TTL"}, {"BLOCKSIZE=0", "BLOCKSIZE"},
        {"MIN_VERSIONS=5", "MIN_VERSIONS"}, {"SALT_BUCKETS=300", "SALT_BUCKETS"},
        {"COMPRESSION='ZIP'", "COMPRESSION"}, {"BLOOMFILTER='X'", "BLOOMFILTER"},
        {"VERSION=3", "VERSION"}, {"G.TTL=10", "G.TTL"},
        {"DATA_BLOCK_ENCODING='FOO'", "DATA_BLOCK_ENCODING"}, {"IN_MEMORY='maybe'", "IN_MEMORY"}};
    for (String[] b : bad) {
      SQLException e = assertThrows(SQLException.class, () -> update(
          "CREATE TABLE opt (id INTEGER NOT NULL PRIMARY KEY, f.x INTEGER) " + b[0]), b[0]);
      assertEquals("22023", io.basaltdb.sql.jdbc.SqlErrors.sqlState(e), b[0]);
      assertTrue(io.basaltdb.sql.jdbc.SqlErrors.toSqlException(e).getMessage().contains(b[1]),
          b[0] + ": " + e.getMessage());
      assertEquals(false, db.admin().tableExists(TableName.of("OPT")), b[0] + " made a table");
    }
    update("CREATE TABLE opt (id INTEGER NOT NULL PRIMARY KEY, f.x INTEGER) f.TTL=10, "
        + "IN_MEMORY=TRUE, DATA_BLOCK_ENCODING='NONE'");
    assertEquals(10, db.admin().describe(TableName.of("OPT")).families().get("F").ttlSeconds());
  }

  @Test
  void schemasMadeByAnotherConnectionAreSeenAtOnce() throws Exception {
    try (Connection other = io.basaltdb.sql.jdbc.BasaltConnections.open(db); Statement st = other.createStatement()) {
      st.executeUpdate("CREATE SCHEMA later");
      st.executeUpdate("CREATE TABLE later.t (id INTEGER NOT NULL PRIMARY KEY)");
      st.executeUpdate("INSERT INTO later.t VALUES (1)");
    }
    assertEquals(List.of("1"), query(conn, "SELECT id FROM later.t"));
    try (Connection other = io.basaltdb.sql.jdbc.BasaltConnections.open(db); Statement st = other.createStatement()) {
      st.executeUpdate("DROP TABLE later.t");
      st.executeUpdate("DROP SCHEMA later");
    }
    assertEquals("42000", io.basaltdb.sql.jdbc.SqlErrors.sqlState(assertThrows(SQLException.class,
        () -> query(conn, "SELECT id FROM later.t"))));
  }
}
