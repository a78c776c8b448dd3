package io.basaltdb.sql.jdbc;

import io.basaltdb.sql.prepare.CalciteInternals;
import java.sql.SQLException;
import java.util.List;
import org.apache.calcite.avatica.Meta;
import org.apache.calcite.avatica.NoSuchStatementException;
import org.apache.calcite.jdbc.CalciteConnection;
import org.apache.calcite.jdbc.CalcitePrepare;
import org.apache.calcite.server.CalciteServerStatement;

/**
 * Calcite's prepare-and-execute of a statement text ({@code CalciteMetaImpl.prepareAndExecute}:
 * prepare on the connection's server statement, keep the signature there, hand it to Avatica's
 * callback, execute), without the step that first builds a framework configuration for every
 * statement only to offer it to a test hook Basalt does not use ({@code STRING_TO_QUERY}).
 * Building that configuration initializes Calcite's convertlet and library operator tables,
 * which a fresh JVM's first statements, planned without Calcite's converter
 * ({@code DirectPlans}), otherwise never need (issue 11, cold start). Same steps in the same
 * order otherwise. Two package-private members of Calcite's connection are reached by
 * reflection ({@link CalciteInternals}); under a Calcite without them, {@link #AVAILABLE} is false and Calcite's own
 * meta does it all.
 */
final class PrepareAndExecute {
  static final boolean AVAILABLE = CalciteInternals.hasConnectionSteps();

  private PrepareAndExecute() {}

  static Meta.ExecuteResult run(CalciteConnection connection, Meta.StatementHandle h,
      String sql, long maxRowCount, Meta.PrepareCallback callback)
      throws NoSuchStatementException {
    try {
      CalcitePrepare.CalciteSignature<Object> signature;
      int updateCount;
      synchronized (callback.getMonitor()) {
        callback.clear();
        CalciteServerStatement statement = CalciteInternals.server(connection).getStatement(h);
        CalcitePrepare.Context context = statement.createPrepareContext();
        signature = CalciteInternals.parseQuery(connection, CalcitePrepare.Query.of(sql), context,
            maxRowCount);
        statement.setSignature(signature);
        updateCount = switch (signature.statementType) {
          case CREATE, DROP, ALTER, OTHER_DDL -> 0; // DDL has no result set
          default -> -1;
        };
        callback.assign(signature, null, updateCount);
      }
      callback.execute();
      return new Meta.ExecuteResult(List.of(Meta.MetaResultSet.create(h.connectionId, h.id,
          false, signature, null, updateCount)));
    } catch (SQLException e) {
      throw new RuntimeException(e); // as Calcite's meta does
    }
  }
}
