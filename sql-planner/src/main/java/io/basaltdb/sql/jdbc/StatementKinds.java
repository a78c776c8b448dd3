package io.basaltdb.sql.jdbc;

import io.basaltdb.sql.StatementStats;
import io.basaltdb.sql.parser.StatementHead;
import org.apache.calcite.avatica.Meta.StatementHandle;
import org.apache.calcite.avatica.Meta.StatementType;

/**
 * What a statement does, for the database's statement counts ({@link StatementStats.Kind}):
 * a prepared statement by its planned type, any other by its first word past comments.
 * Stateless.
 */
final class StatementKinds {
  private StatementKinds() {}

  static StatementStats.Kind of(String sql) {
    if (StatementHead.startsWithPastComments(sql, "SELECT", "WITH", "VALUES", "EXPLAIN",
        "TABLE")) {
      return StatementStats.Kind.QUERY;
    }
    if (StatementHead.startsWithPastComments(sql, "INSERT", "UPSERT", "UPDATE", "DELETE",
        "MERGE")) {
      return StatementStats.Kind.DML;
    }
    if (StatementHead.startsWithPastComments(sql, "CREATE", "DROP", "ALTER", "TRUNCATE",
        "COMMENT")) {
      return StatementStats.Kind.DDL;
    }
    return StatementStats.Kind.OTHER;
  }

  /** Statement {@code h}: by its planned type when it has one (no look at its text). */
  static StatementStats.Kind of(StatementHandle h) {
    StatementType t = h.signature == null ? null : h.signature.statementType;
    if (t == StatementType.SELECT) {
      return StatementStats.Kind.QUERY;
    }
    return t != null && t.canUpdate() ? StatementStats.Kind.DML
        : of(h.signature == null || h.signature.sql == null ? "" : h.signature.sql);
  }
}
