package io.basaltdb.sql.ddl;

import io.basaltdb.sql.SqlStateException;
import io.basaltdb.sql.SqlStates;
import io.basaltdb.sql.exec.context.ConnectionSettings;
import io.basaltdb.sql.parser.StatementHead;
import io.basaltdb.storage.Storage;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.calcite.jdbc.CalciteConnection;

/**
 * {@code BACKUP TO 'dir' [INCREMENTAL FROM 'previous'] [WITHOUT LINKS]}: an online backup of
 * the embedded database into a directory of the machine it runs on (the server's, over a remote
 * connection), as H2's {@code BACKUP TO}; see {@code engine/doc/backup.md}. It runs when
 * prepared, like transaction control, and needs a writable connection. Over HBase it is
 * refused with 0A000 naming HBase's snapshots. Stateless.
 */
public final class BackupStatement {
  private static final String TEXT = "'((?:[^']|'')*)'";
  private static final Pattern BACKUP = Pattern.compile("(?is)\\s*BACKUP\\s+TO\\s+" + TEXT
      + "(?:\\s+INCREMENTAL\\s+FROM\\s+" + TEXT + ")?(\\s+WITHOUT\\s+LINKS)?\\s*;?\\s*");
  static final String SYNTAX = "BACKUP TO 'directory' [INCREMENTAL FROM 'previous backup']"
      + " [WITHOUT LINKS]";

  private BackupStatement() {}

  /** Whether {@code sql} is a BACKUP statement (by its first word; a bad one fails when run). */
  public static boolean matches(String sql) {
    return StatementHead.startsWith(sql, "BACKUP ", "BACKUP\t", "BACKUP\n", "BACKUP\r");
  }

  /** Takes the backup {@code sql} asks for, on connection {@code c} over {@code db}. */
  public static void run(CalciteConnection c, Storage db, String sql) {
    Matcher m = BACKUP.matcher(sql);
    if (!m.matches()) {
      throw new SqlStateException(SqlStates.SYNTAX_ERROR, "cannot parse " + sql.strip()
          + ": expected " + SYNTAX);
    }
    ConnectionSettings.of(c).checkWritable("BACKUP");
    String to = text(m.group(1));
    String previous = m.group(2) == null ? null : text(m.group(2));
    if (to.isBlank()) {
      throw new SqlStateException(SqlStates.INVALID_PARAMETER_VALUE,
          "BACKUP TO needs a directory, not ''");
    }
    try {
      db.backup(Path.of(to), previous == null ? null : Path.of(previous), m.group(3) != null);
    } catch (UnsupportedOperationException e) {
      throw new SqlStateException(SqlStates.FEATURE_NOT_SUPPORTED, "BACKUP TO: "
          + e.getMessage());
    } catch (java.nio.file.InvalidPathException e) {
      throw new SqlStateException(SqlStates.INVALID_PARAMETER_VALUE, "BACKUP TO: not a"
          + " directory name: " + e.getMessage());
    }
  }

  private static String text(String quoted) {
    return quoted.replace("''", "'");
  }
}
