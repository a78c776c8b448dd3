package io.basaltdb.sql.catalog;

import io.basaltdb.storage.Delete;
import io.basaltdb.storage.Get;
import io.basaltdb.storage.Put;
import io.basaltdb.storage.Result;
import io.basaltdb.storage.ResultScanner;
import io.basaltdb.storage.Scan;
import io.basaltdb.storage.Storage;
import io.basaltdb.storage.Table;
import io.basaltdb.storage.TableDescriptor;
import io.basaltdb.storage.TableName;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * SQL metadata kept in the engine itself, like Phoenix's SYSTEM.CATALOG: one row per SQL
 * table in the engine table {@code system:sql_catalog} (row key {@code namespace \0 table},
 * cell {@code d:def} holding {@link SqlTableDef#encode()}; its indexes in cells
 * {@code d:index.<name>} of the same row, {@link io.basaltdb.sql.catalog.SqlIndexDef#encode()}, so
 * dropping the row drops them). It survives restarts and every
 * connection to the database reads the same rows. Thread-safe (the engine is).
 */
public final class SqlCatalog {
  public static final String SYSTEM_NAMESPACE = "system";
  public static final TableName CATALOG_TABLE = new TableName(SYSTEM_NAMESPACE, "sql_catalog");
  private static final byte[] D = {'d'};
  private static final byte[] DEF = "def".getBytes(StandardCharsets.UTF_8);
  private static final byte[] VIEW = "view".getBytes(StandardCharsets.UTF_8);

  private final Table table;

  /** Set once a storage's catalog table is known to exist (checked once per open storage). */
  private static final class Ready {
    volatile boolean done;
  }

  public SqlCatalog(Storage db) {
    Ready ready = db.extension(Ready.class, Ready::new);
    if (!ready.done) {
      synchronized (db.admin()) {
        if (!db.admin().listNamespaces().contains(SYSTEM_NAMESPACE)) {
          db.admin().createNamespace(SYSTEM_NAMESPACE);
        }
        if (!db.admin().tableExists(CATALOG_TABLE)) {
          createRacing(db, TableDescriptor.of(CATALOG_TABLE.toString(), "d"));
        }
        ready.done = true;
      }
    }
    table = db.table(CATALOG_TABLE);
  }

  /** Creates a system table another process may be creating too (a shared storage). */
  static void createRacing(Storage db, TableDescriptor d) {
    try {
      db.admin().createTable(d);
    } catch (io.basaltdb.storage.InvalidArgumentException e) {
      if (!db.admin().tableExists(d.name())) {
        throw e; // not "already exists"
      }
    }
  }

  private static byte[] key(TableName t) {
    return (t.namespace() + "\u0000" + t.name()).getBytes(StandardCharsets.UTF_8);
  }

  public void put(SqlTableDef def) {
    table.put(new Put(key(def.table())).addColumn(D, DEF, def.encode()));
  }

  public SqlTableDef get(TableName t) {
    Result r = table.get(new Get(key(t)));
    byte[] b = r.getValue(D, DEF);
    return b == null ? null : SqlTableDef.decode(t, b);
  }

  public void remove(TableName t) {
    table.delete(new Delete(key(t)));
  }

  private static final String COMMENT = "comment";

  /**
   * Sets (or with null text removes) the comment of table {@code t} (column null) or of its
   * column: cell {@code d:comment} or {@code d:comment.<column>} of the table's row, which goes
   * with the table.
   */
  public void putComment(TableName t, String column, String text) {
    byte[] q = (column == null ? COMMENT : COMMENT + "." + column)
        .getBytes(StandardCharsets.UTF_8);
    if (text == null) {
      table.delete(new Delete(key(t)).addColumns(D, q));
    } else {
      table.put(new Put(key(t)).addColumn(D, q, text.getBytes(StandardCharsets.UTF_8)));
    }
  }

  /** The comments of table {@code t}: "" for the table's own, else by column name. */
  public java.util.Map<String, String> comments(TableName t) {
    java.util.Map<String, String> out = new java.util.TreeMap<>();
    for (java.util.Map.Entry<byte[], byte[]> e : table.get(new Get(key(t))).getFamilyMap(D)
        .entrySet()) {
      String q = new String(e.getKey(), StandardCharsets.UTF_8);
      if (q.equals(COMMENT) || q.startsWith(COMMENT + ".")) {
        out.put(q.equals(COMMENT) ? "" : q.substring(COMMENT.length() + 1),
            new String(e.getValue(), StandardCharsets.UTF_8));
      }
    }
    return out;
  }

  /** Stores a view's SQL (its query, as Calcite's dialect writes it). */
  public void putView(TableName view, String sql) {
    table.put(new Put(key(view)).addColumn(D, VIEW, sql.getBytes(StandardCharsets.UTF_8)));
  }

  /** A view's SQL, or null. */
  public String getView(TableName view) {
    byte[] b = table.get(new Get(key(view))).getValue(D, VIEW);
    return b == null ? null : new String(b, StandardCharsets.UTF_8);
  }

  /** Every view of {@code namespace}: name to SQL. */
  public java.util.Map<String, String> views(String namespace) {
    java.util.Map<String, String> out = new java.util.TreeMap<>();
    byte[] prefix = (namespace + "\u0000").getBytes(StandardCharsets.UTF_8);
    try (ResultScanner s = table.getScanner(new Scan().setRowPrefix(prefix).addColumn(D, VIEW))) {
      for (Result r : s) {
        out.put(new String(r.row(), prefix.length, r.row().length - prefix.length,
            StandardCharsets.UTF_8), new String(r.getValue(D, VIEW), StandardCharsets.UTF_8));
      }
    }
    return out;
  }

  private static final byte[] SEQ = "seq".getBytes(StandardCharsets.UTF_8);
  private static final byte[] NEXT = "next".getBytes(StandardCharsets.UTF_8);

  /**
   * Creates a sequence: cell {@code d:seq} holds {@code start,increment} (text), cell
   * {@code d:next} the counter (an 8-byte engine counter), set so the first value drawn is
   * {@code start}.
   */
  public void putSequence(TableName seq, long start, long increment) {
    table.put(new Put(key(seq))
        .addColumn(D, SEQ, (start + "," + increment).getBytes(StandardCharsets.UTF_8))
        .addColumn(D, NEXT, io.basaltdb.storage.Increment.toBytes(start - increment)));
  }

  /** A sequence's first value, or null when there is no such sequence. */
  public Long sequenceStart(TableName seq) {
    byte[] b = table.get(new Get(key(seq)).addColumn(D, SEQ)).getValue(D, SEQ);
    if (b == null) {
      return null;
    }
    String s = new String(b, StandardCharsets.UTF_8);
    return Long.parseLong(s.substring(0, s.indexOf(',')));
  }

  /** A sequence's increment, or null when there is no such sequence. */
  public Long sequenceIncrement(TableName seq) {
    byte[] b = table.get(new Get(key(seq)).addColumn(D, SEQ)).getValue(D, SEQ);
    if (b == null) {
      return null;
    }
    String s = new String(b, StandardCharsets.UTF_8);
    return Long.parseLong(s.substring(s.indexOf(',') + 1));
  }

  /** Draws the next value of a sequence: one atomic engine increment. */
  public long nextValue(TableName seq) {
    Long inc = sequenceIncrement(seq);
    if (inc == null) {
      throw new io.basaltdb.storage.TableNotFoundException("no sequence " + seq);
    }
    return table.incrementColumnValue(key(seq), D, NEXT, inc);
  }

  /** The names of the sequences of {@code namespace}. */
  public List<String> sequences(String namespace) {
    List<String> out = new ArrayList<>();
    byte[] prefix = (namespace + "\u0000").getBytes(StandardCharsets.UTF_8);
    try (ResultScanner s = table.getScanner(new Scan().setRowPrefix(prefix).addColumn(D, SEQ))) {
      for (Result r : s) {
        out.add(new String(r.row(), prefix.length, r.row().length - prefix.length,
            StandardCharsets.UTF_8));
      }
    }
    return out;
  }

  /** Every SQL table defined in {@code namespace}. */
  public List<SqlTableDef> list(String namespace) {
    List<SqlTableDef> out = new ArrayList<>();
    byte[] prefix = (namespace + "\u0000").getBytes(StandardCharsets.UTF_8);
    try (ResultScanner s = table.getScanner(new Scan().setRowPrefix(prefix))) {
      for (Result r : s) {
        String name = new String(r.row(), prefix.length, r.row().length - prefix.length,
            StandardCharsets.UTF_8);
        byte[] def = r.getValue(D, DEF);
        if (def != null) {
          out.add(SqlTableDef.decode(new TableName(namespace, name), def));
        }
      }
    }
    return out;
  }

  private static final String INDEX_PREFIX = "index.";

  /** Stores an index's definition (in its table's row). */
  public void putIndex(io.basaltdb.sql.catalog.SqlIndexDef index) {
    table.put(new Put(key(index.table())).addColumn(D,
        (INDEX_PREFIX + index.name()).getBytes(StandardCharsets.UTF_8), index.encode()));
  }

  public void removeIndex(TableName t, String name) {
    table.delete(new Delete(key(t)).addColumns(D,
        (INDEX_PREFIX + name).getBytes(StandardCharsets.UTF_8)));
  }

  /** The indexes of table {@code t}, by name. */
  public List<io.basaltdb.sql.catalog.SqlIndexDef> indexes(TableName t) {
    return indexesOf(t, table.get(new Get(key(t))));
  }

  /** The indexes of every table of {@code namespace}. */
  public List<io.basaltdb.sql.catalog.SqlIndexDef> indexes(String namespace) {
    List<io.basaltdb.sql.catalog.SqlIndexDef> out = new ArrayList<>();
    byte[] prefix = (namespace + "\u0000").getBytes(StandardCharsets.UTF_8);
    try (ResultScanner s = table.getScanner(new Scan().setRowPrefix(prefix))) {
      for (Result r : s) {
        String name = new String(r.row(), prefix.length, r.row().length - prefix.length,
            StandardCharsets.UTF_8);
        out.addAll(indexesOf(new TableName(namespace, name), r));
      }
    }
    return out;
  }

  private static List<io.basaltdb.sql.catalog.SqlIndexDef> indexesOf(TableName t, Result r) {
    List<io.basaltdb.sql.catalog.SqlIndexDef> out = new ArrayList<>();
    for (io.basaltdb.storage.Cell c : r.cells()) {
      String q = new String(c.qualifier(), StandardCharsets.UTF_8);
      if (q.startsWith(INDEX_PREFIX)) {
        out.add(io.basaltdb.sql.catalog.SqlIndexDef.decode(t, q.substring(INDEX_PREFIX.length()),
            c.value()));
      }
    }
    return out;
  }
}
