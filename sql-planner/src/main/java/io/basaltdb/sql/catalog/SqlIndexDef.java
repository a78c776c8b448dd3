package io.basaltdb.sql.catalog;

import io.basaltdb.storage.CorruptionException;
import io.basaltdb.storage.TableName;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * A secondary index's definition: its name, the base table, the key parts in key order (each a
 * column or an expression of columns, ascending or descending), the INCLUDE columns kept in the entry, UNIQUE, the salt
 * bucket count of its own keys and its state. An index is an engine table
 * {@code <namespace>:<table>.<index>} ({@link #engineTable}). Kept in the SQL catalog in the
 * base table's row (cell {@code d:index.<name>}) as a versioned record written with
 * {@code DataOutputStream}: format 1: version u8, state u8, unique, salt u8, column count u32,
 * then per column name (UTF) and descending, include count u32, then each include name (UTF);
 * format 2, written when it has {@link IndexStats}: format 1's fields, then the entry count u64,
 * the prefix count u8 and each prefix's distinct values u64; format 3, written when a key part
 * is an expression: format 1's fields with a boolean after each column's descending (true: the
 * "name" is the expression's SQL text, {@link IndexExpression}), then a boolean (statistics
 * follow) and format 2's statistics if so. Immutable.
 */
public record SqlIndexDef(String name, TableName table, List<String> columns,
    List<Boolean> descending, List<String> includes, boolean unique, int saltBuckets,
    State state, IndexStats stats, List<Boolean> computed) {
  public static final int FORMAT_VERSION = 1;
  public static final int FORMAT_VERSION_WITH_STATS = 2;
  public static final int FORMAT_VERSION_WITH_EXPRESSIONS = 3;

  /**
   * BUILDING: every write maintains it but queries do not use it yet (its online build runs);
   * ACTIVE: complete, used by queries.
   */
  public enum State { BUILDING, ACTIVE }

  /** Without statistics (not built yet). */
  public SqlIndexDef(String name, TableName table, List<String> columns,
      List<Boolean> descending, List<String> includes, boolean unique, int saltBuckets,
      State state) {
    this(name, table, columns, descending, includes, unique, saltBuckets, state, null);
  }

  /** Of columns only (no expression). */
  public SqlIndexDef(String name, TableName table, List<String> columns,
      List<Boolean> descending, List<String> includes, boolean unique, int saltBuckets,
      State state, IndexStats stats) {
    this(name, table, columns, descending, includes, unique, saltBuckets, state, stats,
        java.util.Collections.nCopies(columns.size(), false));
  }

  public SqlIndexDef {
    columns = List.copyOf(columns);
    computed = List.copyOf(computed);
    descending = List.copyOf(descending);
    includes = List.copyOf(includes);
    if (columns.isEmpty() || columns.size() != descending.size()
        || columns.size() != computed.size()) {
      throw new IllegalArgumentException("index " + name + " needs its columns");
    }
  }

  /** The engine table holding the index's entries. */
  public TableName engineTable() {
    return engineTable(table, name);
  }

  public static TableName engineTable(TableName table, String index) {
    return new TableName(table.namespace(), table.name() + "." + index);
  }

  public SqlIndexDef withState(State s) {
    return new SqlIndexDef(name, table, columns, descending, includes, unique, saltBuckets, s,
        stats, computed);
  }

  public SqlIndexDef withStats(IndexStats s) {
    return new SqlIndexDef(name, table, columns, descending, includes, unique, saltBuckets,
        state, s, computed);
  }

  public byte[] encode() {
    try {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      DataOutputStream out = new DataOutputStream(bytes);
      boolean expressions = computed.contains(true);
      out.writeByte(expressions ? FORMAT_VERSION_WITH_EXPRESSIONS
          : stats == null ? FORMAT_VERSION : FORMAT_VERSION_WITH_STATS);
      out.writeByte(state.ordinal());
      out.writeBoolean(unique);
      out.writeByte(saltBuckets);
      out.writeInt(columns.size());
      for (int i = 0; i < columns.size(); i++) {
        out.writeUTF(columns.get(i));
        out.writeBoolean(descending.get(i));
        if (expressions) {
          out.writeBoolean(computed.get(i));
        }
      }
      out.writeInt(includes.size());
      for (String c : includes) {
        out.writeUTF(c);
      }
      if (expressions) {
        out.writeBoolean(stats != null);
      }
      if (stats != null) {
        out.writeLong(stats.rows());
        out.writeByte(stats.distinct().size());
        for (long d : stats.distinct()) {
          out.writeLong(d);
        }
      }
      return bytes.toByteArray();
    } catch (IOException e) {
      throw new IllegalStateException(e); // a byte array stream does not fail
    }
  }

  public static SqlIndexDef decode(TableName table, String name, byte[] b) {
    try {
      DataInputStream in = new DataInputStream(new ByteArrayInputStream(b));
      int v = in.readByte();
      if (v < FORMAT_VERSION || v > FORMAT_VERSION_WITH_EXPRESSIONS) {
        throw new CorruptionException("definition of index " + name + " on " + table
            + " has unknown version " + v);
      }
      State state = State.values()[in.readByte()];
      boolean unique = in.readBoolean();
      int salt = in.readByte() & 0xff;
      List<String> cols = new ArrayList<>();
      List<Boolean> desc = new ArrayList<>();
      List<Boolean> computed = new ArrayList<>();
      boolean expressions = v == FORMAT_VERSION_WITH_EXPRESSIONS;
      for (int n = in.readInt(); n > 0; n--) {
        cols.add(in.readUTF());
        desc.add(in.readBoolean());
        computed.add(expressions && in.readBoolean());
      }
      List<String> includes = new ArrayList<>();
      for (int n = in.readInt(); n > 0; n--) {
        includes.add(in.readUTF());
      }
      IndexStats stats = null;
      if (expressions ? in.readBoolean() : v == FORMAT_VERSION_WITH_STATS) {
        long rows = in.readLong();
        List<Long> distinct = new ArrayList<>();
        for (int n = in.readByte() & 0xff; n > 0; n--) {
          distinct.add(in.readLong());
        }
        stats = new IndexStats(rows, distinct);
      }
      return new SqlIndexDef(name, table, cols, desc, includes, unique, salt, state, stats,
          computed);
    } catch (IOException | RuntimeException e) {
      throw new CorruptionException("malformed definition of index " + name + " on " + table
          + ": " + e);
    }
  }
}
