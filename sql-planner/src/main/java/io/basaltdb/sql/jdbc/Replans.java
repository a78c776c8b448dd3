package io.basaltdb.sql.jdbc;

import io.basaltdb.sql.catalog.CatalogVersion;
import io.basaltdb.storage.Storage;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.calcite.avatica.Meta.Signature;
import org.apache.calcite.avatica.Meta.StatementHandle;
import org.apache.calcite.avatica.Meta.StatementType;
import org.apache.calcite.avatica.NoSuchStatementException;
import org.apache.calcite.jdbc.CalciteConnection;
import org.apache.calcite.jdbc.CalcitePrepare;

/**
 * Prepared statements that follow the schema: the SQL catalog's version each was planned under,
 * and its plan made again when DDL has moved it. One per connection ({@link BasaltMeta}); used
 * by embedded statements before each execution and by the server before each remote one.
 */
final class Replans {
  private final CalciteConnection connection;
  private final Storage db;
  /** The SQL catalog's version each prepared statement was planned under, by id. */
  private final Map<Integer, Long> plannedAt = new ConcurrentHashMap<>();

  Replans(CalciteConnection connection, Storage db) {
    this.connection = connection;
    this.db = db;
  }

  /** Statement {@code id} was planned under catalog {@code version}. */
  void planned(int id, long version) {
    plannedAt.put(id, version);
  }

  void forget(int id) {
    plannedAt.remove(id);
  }

  /**
   * Plans prepared statement {@code h} again when DDL has moved the SQL catalog's version since
   * it was planned (a new index, a dropped one, a changed column), as H2 and PostgreSQL do, so
   * a statement a pool keeps for hours uses an index made after it; Calcite's statement takes
   * the new plan. Returns the new signature for the caller's own copy (the JDBC statement, the
   * server's session), or null when the plan stands (DDL run at each execution is never
   * planned: its type is neither SELECT nor DML). A new plan whose parameters or columns
   * differ is refused (0A000, as PostgreSQL's "cached plan must not change result type").
   */
  Signature replanIfStale(StatementHandle h, Signature current)
      throws NoSuchStatementException {
    Long at = plannedAt.get(h.id);
    long now = CatalogVersion.current(db);
    if (at == null || at == now) {
      return null;
    }
    plannedAt.put(h.id, now);
    if (current == null || current.sql == null || current.statementType == null
        || current.statementType != StatementType.SELECT
        && !current.statementType.canUpdate()) {
      return null;
    }
    var statement = io.basaltdb.sql.prepare.CalciteInternals.server(connection).getStatement(h);
    CalcitePrepare.CalciteSignature<Object> replanned =
        io.basaltdb.sql.prepare.CalciteInternals.parseQuery(connection,
            CalcitePrepare.Query.of(current.sql), statement.createPrepareContext(), -1);
    if (!sameShape(current, replanned)) {
      plannedAt.put(h.id, at); // refused again at the next try
      throw new io.basaltdb.sql.SqlStateException(io.basaltdb.sql.SqlStates.FEATURE_NOT_SUPPORTED,
          "the tables of statement \""
          + current.sql + "\" changed since it was prepared, and so did its parameters or"
          + " columns: prepare it again");
    }
    statement.setSignature(replanned);
    return replanned;
  }

  /** Same parameter types and same columns (labels and types). */
  private static boolean sameShape(Signature a, Signature b) {
    if (a.parameters.size() != b.parameters.size() || a.columns.size() != b.columns.size()) {
      return false;
    }
    for (int i = 0; i < a.parameters.size(); i++) {
      if (a.parameters.get(i).parameterType != b.parameters.get(i).parameterType) {
        return false;
      }
    }
    for (int i = 0; i < a.columns.size(); i++) {
      if (a.columns.get(i).type.id != b.columns.get(i).type.id
          || !java.util.Objects.equals(a.columns.get(i).label, b.columns.get(i).label)) {
        return false;
      }
    }
    return true;
  }
}
