package io.basaltdb.jdbc;

import io.basaltdb.storage.StorageProvider;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basaltdb.storage.Admin;
import io.basaltdb.engine.Database;
import io.basaltdb.storage.Durability;
import io.basaltdb.engine.EngineOptions;
import io.basaltdb.storage.ReadSnapshot;
import io.basaltdb.storage.Result;
import io.basaltdb.storage.RowChange;
import io.basaltdb.storage.Storage;
import io.basaltdb.storage.Table;
import io.basaltdb.storage.TableName;
import io.basaltdb.sql.jdbc.BasaltConnection;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.function.Function;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * A {@code jdbc:basalt:<scheme>:} URL reaches the storage its provider opens, the SQL layer runs
 * on it through the {@link Storage} seam alone (this test's storage is no {@link Database}), and
 * a URL of a backend whose jar is absent is a clear error.
 */
class StorageProviderTest {
  /** Storages the provider opened, in order. */
  static final List<Forwarding> OPENED =
      java.util.Collections.synchronizedList(new ArrayList<>());

  @Test
  void aProviderOpensTheStorageAndTheLastConnectionClosesIt() throws Exception {
    Connection a = DriverManager.getConnection("jdbc:basalt:fwd:one;durability=ASYNC");
    try (Connection b = DriverManager.getConnection("jdbc:basalt:fwd:one")) {
      List<Forwarding> mine = OPENED.stream().filter(f -> f.location.equals("one")).toList();
      assertEquals(1, mine.size(), "one storage per location");
      Forwarding s = mine.get(0);
      assertEquals("one", s.location);
      assertEquals("ASYNC", s.properties.getProperty("durability"));
      try (Statement st = a.createStatement()) {
        st.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, v VARCHAR)");
        assertEquals(2, st.executeUpdate("INSERT INTO t VALUES (1, 'a'), (2, 'b')"));
      }
      try (Statement st = b.createStatement();
          ResultSet rs = st.executeQuery("SELECT v FROM t WHERE id = 2")) {
        assertTrue(rs.next());
        assertEquals("b", rs.getString(1));
      }
      assertTrue(s.tablesOpened > 0, "the SQL layer read through the provider's storage");
      BasaltConnection bc = a.unwrap(BasaltConnection.class);
      assertEquals(s, bc.storage());
      assertEquals("0A000", assertThrows(SQLException.class,
          () -> bc.storage(io.basaltdb.engine.Database.class)).getSQLState());
      assertEquals(s, bc.storage(io.basaltdb.storage.Storage.class));
      assertFalse(s.closed);
      a.close();
      assertFalse(s.closed, "a connection is still open");
    }
    assertTrue(OPENED.stream().filter(f -> f.location.equals("one")).allMatch(f -> f.closed),
        "the last connection closed the storage");
  }

  @Test
  void indexesOnAStorageThatWritesOneRowAtATime() throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:basalt:fwd:rowsalone");
        Statement st = c.createStatement()) {
      st.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, v VARCHAR)");
      st.execute("CREATE UNIQUE INDEX t_v ON t (v)"); // kept by the client-side protocol
      assertEquals(1, st.executeUpdate("INSERT INTO t VALUES (1, 'a')"));
      SQLException e = assertThrows(SQLException.class,
          () -> st.executeUpdate("INSERT INTO t VALUES (2, 'a')"));
      assertEquals("23505", e.getSQLState());
      assertTrue(e.getMessage().contains("T_V"), e.getMessage());
      try (ResultSet rs = st.executeQuery("SELECT id FROM t WHERE v = 'a'")) {
        assertTrue(rs.next());
        assertEquals(1, rs.getInt(1));
        assertFalse(rs.next());
      }
    }
  }

  @Test
  void aBackendWithoutItsJarIsAClearError() {
    SQLException e = assertThrows(SQLException.class,
        () -> DriverManager.getConnection("jdbc:basalt:hbase:localhost:2181"));
    assertEquals("08001", e.getSQLState());
    assertTrue(e.getMessage().contains("basalt-hbase-<version>-all.jar"), e.getMessage());
    SQLException empty = assertThrows(SQLException.class,
        () -> DriverManager.getConnection("jdbc:basalt:hbase:"));
    assertEquals("08001", empty.getSQLState());
    assertTrue(empty.getMessage().contains("no hbase location"), empty.getMessage());
  }

  /** Registered in this module's test resources for scheme {@code fwd}. */
  public static final class ForwardingProvider implements StorageProvider {
    @Override
    public String scheme() {
      return "fwd";
    }

    @Override
    public Storage open(String location, Properties properties) {
      Forwarding s = new Forwarding(location, properties);
      OPENED.add(s);
      return s;
    }
  }

  /** A storage over an in-memory database that is not one: only the seam reaches it. */
  static final class Forwarding implements Storage {
    final Database db = Database.openTemporary(EngineOptions.defaults());
    final String location;
    final Properties properties;
    int tablesOpened;
    boolean closed;

    Forwarding(String location, Properties properties) {
      this.location = location;
      this.properties = properties;
    }

    @Override
    public String location() {
      return location;
    }

    @Override
    public Admin admin() {
      return db.admin();
    }

    @Override
    public Table table(TableName name) {
      tablesOpened++;
      return db.table(name);
    }

    @Override
    public io.basaltdb.storage.StorageTransaction begin(
        io.basaltdb.storage.StorageTransaction.Isolation isolation) {
      return io.basaltdb.storage.ClientTransactions.begin(this); // as HBaseStorage
    }

    @Override
    public ReadSnapshot snapshot() {
      return null; // as a storage without consistent cuts
    }

    @Override
    public void sync() {
      db.sync();
    }

    @Override
    public <T> T extension(Class<T> type, Supplier<? extends T> create) {
      return db.extension(type, create);
    }

    /** Location {@code rowsalone}: a storage that writes one row at a time, as HBase. */
    @Override
    public boolean atomicAcrossRows() {
      return !location.equals("rowsalone");
    }

    @Override
    public void mutateAtomically(List<RowChange> changes) {
      if (!atomicAcrossRows()) {
        throw new UnsupportedOperationException("rows alone");
      }
      db.mutateAtomically(changes);
    }

    @Override
    public void mutateAfterRead(Table table, byte[] row, Durability durability,
        Function<Result, List<RowChange>> plan) {
      if (!atomicAcrossRows()) {
        throw new UnsupportedOperationException("rows alone");
      }
      db.mutateAfterRead(table, row, durability, plan);
    }

    @Override
    public void close() {
      closed = true;
      db.close();
    }
  }
}
