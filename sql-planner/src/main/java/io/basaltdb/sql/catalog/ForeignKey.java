package io.basaltdb.sql.catalog;

import io.basaltdb.storage.TableName;
import java.util.List;

/**
 * A FOREIGN KEY constraint of a (child) table: its columns reference the primary key of
 * {@code parent}, column for column ({@code parentColumns}, in the order the constraint named
 * them). Kept in the child's {@link SqlTableDef}. Enforced ones are checked by the SQL layer's
 * writes ({@code exec.write.ForeignKeyChecks}); {@code NOT ENFORCED} ones are declarations
 * only (metadata for tools, and what a storage without atomic writes of many rows accepts).
 * Design: {@code sql-planner/doc/foreign-keys.md}. Immutable.
 */
public record ForeignKey(String name, List<String> columns, TableName parent,
    List<String> parentColumns, Action onDelete, Action onUpdate, boolean enforced) {

  /** What a delete (or key update) of a referenced parent row does to its children. */
  public enum Action {
    NO_ACTION(0, "NO ACTION", 3), RESTRICT(1, "RESTRICT", 1), CASCADE(2, "CASCADE", 0),
    SET_NULL(3, "SET NULL", 2), SET_DEFAULT(4, "SET DEFAULT", 4);

    private final int code;
    private final String sql;
    private final int jdbcRule;

    Action(int code, String sql, int jdbcRule) {
      this.code = code;
      this.sql = sql;
      this.jdbcRule = jdbcRule;
    }

    /** The stored code (frozen). */
    public int code() {
      return code;
    }

    /** As SQL writes it ({@code SET NULL}), and INFORMATION_SCHEMA shows it. */
    public String sql() {
      return sql;
    }

    /** {@code DatabaseMetaData.importedKeyCascade} and its kind. */
    public int jdbcRule() {
      return jdbcRule;
    }

    public static Action ofCode(int code) {
      for (Action a : values()) {
        if (a.code == code) {
          return a;
        }
      }
      throw new io.basaltdb.storage.CorruptionException("unknown foreign key action " + code);
    }
  }

  public ForeignKey {
    columns = List.copyOf(columns);
    parentColumns = List.copyOf(parentColumns);
  }
}
