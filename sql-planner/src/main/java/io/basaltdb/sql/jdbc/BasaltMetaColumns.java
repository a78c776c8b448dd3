package io.basaltdb.sql.jdbc;

import io.basaltdb.sql.schema.BasaltSqlTable;
import org.apache.calcite.avatica.MetaImpl;
import org.apache.calcite.jdbc.CalciteMetaColumnFactoryImpl;
import org.apache.calcite.schema.Table;

/**
 * The rows of JDBC's {@code getColumns}: Calcite's, with {@code COLUMN_DEF} (a column's
 * {@code DEFAULT} as SQL text, as {@code INFORMATION_SCHEMA.COLUMNS} shows it) filled in for
 * Basalt tables, and {@code REMARKS} (its {@code COMMENT ON COLUMN}); Calcite leaves both empty. A TIMESTAMP WITH TIME ZONE column is JDBC's
 * {@code TIMESTAMP_WITH_TIMEZONE} ({@link Instants}).
 */
public final class BasaltMetaColumns extends CalciteMetaColumnFactoryImpl {
  public static final BasaltMetaColumns INSTANCE = new BasaltMetaColumns();

  private BasaltMetaColumns() {}

  /**
   * A column row with its default and comment (the fields hide the always-null ones it
   * extends).
   */
  public static final class Column extends MetaImpl.MetaColumn {
    public final String remarks;
    public final String columnDef;

    Column(String tableCat, String tableSchem, String tableName, String columnName,
        int dataType, String typeName, Integer columnSize, Integer decimalDigits,
        int numPrecRadix, int nullable, Integer charOctetLength, int ordinalPosition,
        String isNullable, String columnDef, String remarks) {
      super(tableCat, tableSchem, tableName, columnName, dataType, typeName, columnSize,
          decimalDigits, numPrecRadix, nullable, charOctetLength, ordinalPosition, isNullable);
      this.columnDef = columnDef;
      this.remarks = remarks;
    }
  }

  @Override
  public MetaImpl.MetaColumn createColumn(Table table, String tableCat, String tableSchem,
      String tableName, String columnName, int dataType, String typeName, Integer columnSize,
      Integer decimalDigits, int numPrecRadix, int nullable, Integer charOctetLength,
      int ordinalPosition, String isNullable) {
    BasaltSqlTable basalt = table instanceof BasaltSqlTable b ? b : null;
    String def = basalt == null ? null : basalt.definition().defaults().get(columnName);
    if (typeName != null && typeName.startsWith(Instants.CALCITE_TYPE_NAME)) {
      // an instant: JDBC's TIMESTAMP_WITH_TIMEZONE, as H2 reports it (Calcite says TIMESTAMP)
      dataType = java.sql.Types.TIMESTAMP_WITH_TIMEZONE;
      typeName = Instants.SQL_TYPE_NAME + typeName.replaceFirst(
          Instants.CALCITE_TYPE_NAME + "(\\(\\d+\\))?", "");
    }
    String remarks = basalt == null ? null : basalt.comments().get(columnName);
    if (typeName != null && typeName.endsWith(" NOT NULL")) {
      // the type's name only, as JDBC defines TYPE_NAME (NULLABLE says the rest); Calcite adds
      // it, and Hibernate's schema validation then finds a UUID column of a wrong type
      typeName = typeName.substring(0, typeName.length() - " NOT NULL".length());
    }
    return new Column(tableCat, tableSchem, tableName, columnName, dataType, typeName,
        columnSize, decimalDigits, numPrecRadix, nullable, charOctetLength, ordinalPosition,
        isNullable, def, remarks);
  }

  @Override
  public Class<? extends MetaImpl.MetaColumn> getMetaColumnClass() {
    return Column.class;
  }
}
