package io.basaltdb.sql.prepare;

import io.basaltdb.sql.exec.ConnectionTransaction;
import io.basaltdb.sql.parser.StatementHead;
import io.basaltdb.storage.Storage;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.calcite.jdbc.CalciteConnection;

/**
 * Transaction control in SQL, as sqlline users and migration tools write it: {@code COMMIT
 * [WORK]}, {@code ROLLBACK [WORK]}, {@code SAVEPOINT s}, {@code ROLLBACK [WORK] TO [SAVEPOINT]
 * s}, {@code RELEASE [SAVEPOINT] s} (the standard's and PostgreSQL's forms). They act on the
 * connection's transaction ({@link ConnectionTransaction}) when they run, like JDBC's own
 * calls; a savepoint name is upper-cased unless quoted, as identifiers are. Stateless.
 */
public final class TransactionStatements {
  private static final String NAME = "(\"(?:[^\"]|\"\")+\"|[A-Za-z_][A-Za-z0-9_$]*)";
  private static final Pattern COMMIT = Pattern.compile("(?is)\\s*COMMIT(\\s+WORK)?\\s*;?\\s*");
  private static final Pattern ROLLBACK =
      Pattern.compile("(?is)\\s*ROLLBACK(\\s+WORK)?\\s*;?\\s*");
  private static final Pattern SAVEPOINT =
      Pattern.compile("(?is)\\s*SAVEPOINT\\s+" + NAME + "\\s*;?\\s*");
  private static final Pattern ROLLBACK_TO = Pattern.compile(
      "(?is)\\s*ROLLBACK(?:\\s+WORK)?\\s+TO\\s+(?:SAVEPOINT\\s+)?" + NAME + "\\s*;?\\s*");
  private static final Pattern RELEASE =
      Pattern.compile("(?is)\\s*RELEASE\\s+(?:SAVEPOINT\\s+)?" + NAME + "\\s*;?\\s*");

  private TransactionStatements() {}

  /** Whether {@code sql} is one of these statements (a cheap look at its first word first). */
  public static boolean matches(String sql) {
    if (!StatementHead.startsWith(sql, "COMMIT", "ROLLBACK", "SAVEPOINT",
        "RELEASE")) {
      return false;
    }
    return COMMIT.matcher(sql).matches() || ROLLBACK.matcher(sql).matches()
        || SAVEPOINT.matcher(sql).matches() || ROLLBACK_TO.matcher(sql).matches()
        || RELEASE.matcher(sql).matches();
  }

  /** Runs {@code sql} on connection {@code c} over {@code db}; false when it is none of these. */
  public static boolean run(CalciteConnection c, Storage db, String sql) {
    if (!matches(sql)) {
      return false;
    }
    Matcher m;
    if (COMMIT.matcher(sql).matches()) {
      ConnectionTransaction.commit(c);
    } else if (ROLLBACK.matcher(sql).matches()) {
      ConnectionTransaction.rollback(c);
    } else if ((m = SAVEPOINT.matcher(sql)).matches()) {
      ConnectionTransaction.setSavepoint(c, db, name(m.group(1)));
    } else if ((m = ROLLBACK_TO.matcher(sql)).matches()) {
      ConnectionTransaction.rollbackTo(c, db, name(m.group(1)));
    } else if ((m = RELEASE.matcher(sql)).matches()) {
      ConnectionTransaction.release(c, db, name(m.group(1)));
    }
    return true;
  }

  private static String name(String token) {
    if (token.startsWith("\"")) {
      return token.substring(1, token.length() - 1).replace("\"\"", "\"");
    }
    return token.toUpperCase(Locale.ROOT);
  }
}
