package io.basaltdb.sql.ddl;

import io.basaltdb.sql.SqlStates;
import io.basaltdb.storage.InvalidArgumentException;
import io.basaltdb.sql.catalog.SqlColumn;
import io.basaltdb.sql.catalog.SqlTableDef;
import io.basaltdb.sql.type.ColumnType;
import java.util.List;
import java.util.Locale;
import org.apache.calcite.sql.SqlDataTypeSpec;

/**
 * The columns DDL declares, as the SQL catalog keeps them: a declared type as Basalt's column
 * type (the names other databases use, Phoenix's UNSIGNED_* with their check, ARRAY of an
 * element type, a hybrid family's MAP), with its precision and scale; and the rules a table's
 * MAP columns keep. Stateless.
 */
final class DeclaredColumns {
  private DeclaredColumns() {}

  /**
   * A hybrid family's MAP column (the family's other cells) is nullable, one per family, not
   * in a table stored one cell per family, and has no default.
   */
  static void checkMaps(List<SqlColumn> columns, boolean packed, String table) {
    java.util.Set<String> families = new java.util.HashSet<>();
    for (SqlColumn c : columns) {
      if (!c.isMap()) {
        continue;
      }
      if (c.isKey()) {
        throw new io.basaltdb.sql.SqlStateException(SqlStates.FEATURE_NOT_SUPPORTED,
            "MAP column " + c.name()
            + " cannot be part of the primary key");
      }
      if (!c.nullable()) {
        throw new io.basaltdb.sql.SqlStateException(SqlStates.FEATURE_NOT_SUPPORTED,
            "MAP column " + c.name() + " of "
            + table + " cannot be NOT NULL: it is NULL when its family has no other cells");
      }
      if (packed) {
        throw new io.basaltdb.sql.SqlStateException(SqlStates.FEATURE_NOT_SUPPORTED,
            "MAP column " + c.name() + ": "
            + table + " stores each family in one cell (IMMUTABLE_STORAGE_SCHEME="
            + "SINGLE_CELL_ARRAY_WITH_OFFSETS), so it has no other cells");
      }
      if (!families.add(c.family())) {
        throw new InvalidArgumentException("family " + c.family() + " of " + table + " has two "
            + "MAP columns; one holds all its other cells");
      }
    }
  }

  /**
   * A column of a declared type: its precision and scale as declared (-1 when not); an ARRAY
   * ({@code INTEGER ARRAY}, {@code VARCHAR(10)[]}) has the element's, and is never a key.
   */
  static SqlColumn column(String name, SqlDataTypeSpec spec, boolean nullable, int keyPos,
      boolean desc, String family) {
    ColumnType element = null;
    SqlDataTypeSpec declared = spec;
    if (spec.getTypeNameSpec() instanceof org.apache.calcite.sql.SqlCollectionTypeNameSpec coll) {
      if (!coll.getTypeName().getSimple().equals("ARRAY")) {
        throw new io.basaltdb.sql.SqlStateException(SqlStates.FEATURE_NOT_SUPPORTED,
            "column " + name + " is a "
            + coll.getTypeName() + "; the collection type is ARRAY");
      }
      if (keyPos >= 0) {
        throw new io.basaltdb.sql.SqlStateException(SqlStates.FEATURE_NOT_SUPPORTED,
            "ARRAY column " + name
            + " cannot be part of the primary key");
      }
      declared = new SqlDataTypeSpec(coll.getElementTypeName(), spec.getParserPosition());
      element = columnType(declared);
    }
    var basic = declared.getTypeNameSpec() instanceof org.apache.calcite.sql.SqlBasicTypeNameSpec b
        ? b : null;
    return new SqlColumn(name, element != null ? ColumnType.ARRAY : columnType(declared),
        basic == null ? -1 : basic.getPrecision(), basic == null ? -1 : basic.getScale(),
        nullable, keyPos, desc, family, element);
  }

  /**
   * A declared type as Basalt's column type. Besides the standard names, the names users bring
   * from other databases map to the type they mean there ({@link ColumnType#ALIASES});
   * Phoenix's {@code UNSIGNED_*} types are their signed types with a check ({@link #unsignedCheck}). Anything else is
   * refused with 0A000 naming the type.
   */
  static ColumnType columnType(SqlDataTypeSpec spec) {
    String n = spec.getTypeName().getSimple().toUpperCase(Locale.ROOT);
    if (ColumnType.ALIASES.containsKey(n)) {
      return ColumnType.ALIASES.get(n);
    }
    return switch (n) {
      case "BOOLEAN" -> ColumnType.BOOLEAN;
      case "TINYINT", "UNSIGNED_TINYINT" -> ColumnType.TINYINT;
      case "SMALLINT", "UNSIGNED_SMALLINT" -> ColumnType.SMALLINT;
      case "INTEGER", "INT", "UNSIGNED_INT" -> ColumnType.INTEGER;
      case "BIGINT", "UNSIGNED_LONG" -> ColumnType.BIGINT;
      case "REAL", "FLOAT", "UNSIGNED_FLOAT" -> ColumnType.REAL;
      case "DOUBLE", "UNSIGNED_DOUBLE" -> ColumnType.DOUBLE;
      case "DECIMAL", "NUMERIC" -> ColumnType.DECIMAL;
      case "CHAR" -> ColumnType.CHAR;
      case "VARCHAR" -> ColumnType.VARCHAR;
      case "BINARY" -> ColumnType.BINARY;
      case "VARBINARY" -> ColumnType.VARBINARY;
      case "DATE", "UNSIGNED_DATE" -> ColumnType.DATE;
      case "TIME", "UNSIGNED_TIME" -> ColumnType.TIME;
      case "TIMESTAMP", "UNSIGNED_TIMESTAMP" -> ColumnType.TIMESTAMP;
      case "TIMESTAMP_TZ", "TIMESTAMP_WITH_LOCAL_TIME_ZONE", "TIMESTAMPTZ" -> ColumnType.TIMESTAMP_TZ;
      case "UUID" -> ColumnType.UUID;
      case "MAP" -> ColumnType.MAP;
      default -> throw new io.basaltdb.sql.SqlStateException(SqlStates.FEATURE_NOT_SUPPORTED,
          "unsupported column type "
          + n + "; the types are BOOLEAN, TINYINT, SMALLINT, INTEGER, BIGINT, REAL, DOUBLE, "
          + "DECIMAL(p, s), CHAR(n), VARCHAR(n), BINARY(n), VARBINARY(n), DATE, TIME, TIMESTAMP "
          + "[WITH TIME ZONE], UUID (and Phoenix's UNSIGNED_* of them)");
    };
  }

  /**
   * The check that keeps a column of a Phoenix {@code UNSIGNED_*} type at or above zero (the
   * epoch for dates and timestamps; a time of day needs none): named {@code T_COL_UNSIGNED},
   * a negative value refused with 23514. Null for other types.
   */
  static SqlTableDef.Check unsignedCheck(String table, String column, SqlDataTypeSpec spec) {
    if (spec.getTypeNameSpec() instanceof org.apache.calcite.sql.SqlCollectionTypeNameSpec) {
      return null;
    }
    String n = spec.getTypeName().getSimple().toUpperCase(Locale.ROOT);
    String floor = switch (n) {
      case "UNSIGNED_TINYINT", "UNSIGNED_SMALLINT", "UNSIGNED_INT", "UNSIGNED_LONG",
          "UNSIGNED_FLOAT", "UNSIGNED_DOUBLE" -> "0";
      case "UNSIGNED_DATE" -> "DATE '1970-01-01'";
      case "UNSIGNED_TIMESTAMP" -> "TIMESTAMP '1970-01-01 00:00:00'";
      default -> null;
    };
    return floor == null ? null : new SqlTableDef.Check(
        (table + "_" + column + "_UNSIGNED").toUpperCase(Locale.ROOT),
        "\"" + column.replace("\"", "\"\"") + "\" >= " + floor);
  }
}
