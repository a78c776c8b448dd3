package io.basaltdb.sql.ddl;

import io.basaltdb.sql.SqlStates;
import io.basaltdb.storage.InvalidArgumentException;
import io.basaltdb.sql.SqlStateException;
import io.basaltdb.sql.parser.SqlColumnDef;
import io.basaltdb.sql.parser.SqlCreateBasaltTable;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.calcite.avatica.util.Quoting;
import org.apache.calcite.jdbc.CalcitePrepare;
import org.apache.calcite.sql.SqlBasicTypeNameSpec;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlDialect;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * {@code CREATE TABLE t [(columns)] [options] AS query}: the table made as declared or, without
 * columns, with one column per field of the query (its name and type, nullable, no primary
 * key: a hidden row key), then filled by {@code INSERT INTO t SELECT ...} on the statement's
 * own connection (its settings, durability and transaction hold). The query is typed by
 * preparing it on that connection, and passed on as text in the connection's quoting. When
 * the fill fails (a value the column refuses), the table is dropped again: the statement makes
 * the table with all its rows or nothing. Stateless.
 */
final class CreateTableAsSelect {
  private CreateTableAsSelect() {}

  /** The connection the DDL statement runs on. */
  static Connection connection(CalcitePrepare.Context context) {
    if (context.getDataContext().getQueryProvider() instanceof Connection c) {
      return c;
    }
    throw new SqlStateException(SqlStates.FEATURE_NOT_SUPPORTED,
        "CREATE TABLE ... AS needs a connection to run on");
  }

  /** The connection's identifier quote. */
  private static String quote(CalcitePrepare.Context context) {
    Quoting q = context.config().quoting();
    return switch (q) {
      case BACK_TICK, BACK_TICK_BACKSLASH -> "`";
      case BRACKET -> "[";
      default -> "\"";
    };
  }

  /** The query as text the connection parses back the same. */
  static String text(SqlNode query, CalcitePrepare.Context context) {
    String quote = quote(context);
    SqlDialect dialect = new SqlDialect(SqlDialect.EMPTY_CONTEXT
        .withDatabaseProduct(SqlDialect.DatabaseProduct.CALCITE)
        .withIdentifierQuoteString(quote));
    return query.toSqlString(c -> c.withDialect(dialect)).getSql();
  }

  /** {@code create} with the query's fields as its columns (when it declares none). */
  static SqlCreateBasaltTable withQueryColumns(SqlCreateBasaltTable create, Connection c,
      String query) {
    if (!create.columns.isEmpty()) {
      return create;
    }
    List<SqlColumnDef> columns = new ArrayList<>();
    Set<String> names = new HashSet<>();
    SqlParserPos pos = create.getParserPosition();
    try (PreparedStatement ps = c.prepareStatement(query)) {
      ResultSetMetaData md = ps.getMetaData();
      for (int i = 1; i <= md.getColumnCount(); i++) {
        String name = md.getColumnLabel(i);
        if (name.startsWith("EXPR$")) {
          throw new SqlStateException(SqlStates.SYNTAX_ERROR,
              "column " + i + " of the query of CREATE TABLE "
              + create.name + " has no name: name it with AS");
        }
        if (!names.add(name)) {
          throw new InvalidArgumentException("the query of CREATE TABLE " + create.name
              + " has two columns named " + name + ": rename one with AS");
        }
        columns.add(new SqlColumnDef(pos, new SqlIdentifier(name, pos),
            new SqlDataTypeSpec(type(md, i, create), pos), false, false, false, null));
      }
    } catch (SQLException e) {
      throw failure(e);
    }
    return new SqlCreateBasaltTable(pos, create.getReplace(), create.ifNotExists, create.name,
        columns, List.of(), List.of(), List.of(), List.of(), create.options, create.splitPoints,
        create.query, List.of());
  }

  private static SqlBasicTypeNameSpec type(ResultSetMetaData md, int i,
      SqlCreateBasaltTable create) throws SQLException {
    SqlTypeName t = "UUID".equals(md.getColumnTypeName(i)) ? SqlTypeName.UUID
        : md.getColumnType(i) == java.sql.Types.TIMESTAMP_WITH_TIMEZONE
            || md.getColumnTypeName(i).startsWith("TIMESTAMP_WITH_LOCAL_TIME_ZONE")
            ? SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE
        : SqlTypeName.getNameForJdbcType(md.getColumnType(i));
    SqlParserPos pos = create.getParserPosition();
    if (t == null || t == SqlTypeName.NULL || t == SqlTypeName.ARRAY) {
      throw new SqlStateException(SqlStates.FEATURE_NOT_SUPPORTED,
          "column " + md.getColumnLabel(i) + " of the query of "
          + "CREATE TABLE " + create.name + " is of type " + md.getColumnTypeName(i)
          + ", which CREATE TABLE ... AS cannot take from a query: declare the table's columns");
    }
    int precision = md.getPrecision(i);
    return switch (t) {
      case CHAR, BINARY -> new SqlBasicTypeNameSpec(t, Math.max(1, precision), pos);
      case VARCHAR, VARBINARY -> precision > 0 && precision < 65536
          ? new SqlBasicTypeNameSpec(t, precision, pos) : new SqlBasicTypeNameSpec(t, pos);
      case DECIMAL -> new SqlBasicTypeNameSpec(t, precision, md.getScale(i), pos);
      default -> new SqlBasicTypeNameSpec(t, pos);
    };
  }

  /** Fills the new table with the query's rows; drops it again when that fails. */
  static void fill(SqlCreateBasaltTable create, Connection c, String query,
      CalcitePrepare.Context context) {
    String quote = quote(context);
    StringBuilder cols = new StringBuilder();
    for (SqlColumnDef col : create.columns) {
      cols.append(cols.length() > 0 ? ", " : "").append(quoted(col.column(), quote));
    }
    String table = quotedName(create.name, context);
    try (Statement st = c.createStatement()) {
      st.executeUpdate("INSERT INTO " + table + " (" + cols + ") " + query);
    } catch (SQLException | RuntimeException e) {
      try (Statement st = c.createStatement()) {
        st.execute("DROP TABLE " + table);
      } catch (SQLException | RuntimeException dropped) {
        e.addSuppressed(dropped);
      }
      if (e instanceof RuntimeException r) {
        throw r;
      }
      throw failure((SQLException) e);
    }
  }

  /** {@code id} as the connection's text (each part quoted as it quotes). */
  static String quotedName(SqlIdentifier id, CalcitePrepare.Context context) {
    String quote = quote(context);
    StringBuilder out = new StringBuilder();
    for (String part : id.names) {
      out.append(out.length() > 0 ? "." : "").append(quoted(part, quote));
    }
    return out.toString();
  }

  /** Runs {@code sql} (a write) on the DDL statement's connection. */
  static void run(CalcitePrepare.Context context, String sql) {
    try (Statement st = connection(context).createStatement()) {
      st.executeUpdate(sql);
    } catch (SQLException e) {
      throw failure(e);
    }
  }

  private static String quoted(String name, String quote) {
    String close = quote.equals("[") ? "]" : quote;
    return quote + name.replace(close, close + close) + close;
  }

  /**
   * A failure of the statement's query or fill as the error that caused it (an engine or
   * Calcite exception, which the statement then reports with its SQLState as if it had met
   * it itself), else with the state the driver gave.
   */
  private static RuntimeException failure(SQLException e) {
    for (Throwable t = e.getCause(); t != null; t = t.getCause()) {
      if (t instanceof RuntimeException r) {
        return r;
      }
    }
    return new SqlStateException(e.getSQLState() != null ? e.getSQLState() : SqlStates.SYNTAX_ERROR,
        e.getMessage());
  }
}
