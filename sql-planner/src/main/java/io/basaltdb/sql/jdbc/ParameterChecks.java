package io.basaltdb.sql.jdbc;

import io.basaltdb.sql.SqlStates;
import io.basaltdb.sql.catalog.ColumnValues;
import io.basaltdb.sql.parser.LimitParameters;
import java.sql.SQLException;
import java.util.Calendar;
import java.util.List;
import java.util.TimeZone;
import org.apache.calcite.avatica.AvaticaParameter;
import org.apache.calcite.avatica.Meta;
import org.apache.calcite.avatica.remote.TypedValue;

/**
 * The checks a value bound to a statement's parameter must pass: it fits the parameter's type
 * ({@link ColumnValues#checkParameter}: 22001 too long, 22003 out of range, ...; Calcite's
 * generated code would otherwise wrap a {@code long} into an {@code int} or cut a string), and
 * a LIMIT/OFFSET parameter is not negative ({@link LimitParameters}: 2201W/2201X). A function
 * of its signature and immutable: made once per signature a connection prepares
 * ({@link BasaltConnection#parameterChecks}); used as values are bound (embedded) or as they
 * arrive (server).
 */
public final class ParameterChecks {
  private static final TimeZone UTC = TimeZone.getTimeZone("UTC");

  private final int[] types;
  private final int[] precisions;
  private final int[] scales;
  private final String[] labels; // made once: a message per bound value costs a lot
  private final boolean[] uuids;
  private final LimitParameters limits;
  /** What these checks were made from. */
  final Meta.Signature signature;

  public ParameterChecks(Meta.Signature signature) {
    this.signature = signature;
    List<AvaticaParameter> parameters = signature.parameters;
    int n = parameters.size();
    types = new int[n];
    precisions = new int[n];
    scales = new int[n];
    labels = new String[n];
    uuids = new boolean[n];
    for (int i = 0; i < n; i++) {
      AvaticaParameter p = parameters.get(i);
      labels[i] = "parameter " + (i + 1);
      // an instant (TIMESTAMP WITH TIME ZONE) is a TIMESTAMP to Calcite's JDBC metadata
      types[i] = Instants.CALCITE_TYPE_NAME.equals(p.typeName)
          ? java.sql.Types.TIMESTAMP_WITH_TIMEZONE : p.parameterType;
      uuids[i] = "UUID".equals(p.typeName);
      precisions[i] = p.precision;
      scales[i] = p.scale;
    }
    limits = LimitParameters.of(signature.sql);
  }

  /**
   * Checks the value bound to parameter {@code index} (1-based), and the index: one the
   * statement does not have is 07009 (Avatica's own error has no SQLState).
   */
  void check(int index, Object value) throws SQLException {
    if (index < 1 || index > types.length) {
      throw new SQLException("parameter index " + index + " out of range: the statement has "
          + types.length + " parameter" + (types.length == 1 ? "" : "s"),
          SqlStates.INVALID_DESCRIPTOR_INDEX);
    }
    try {
      ColumnValues.checkParameter(types[index - 1], precisions[index - 1], scales[index - 1],
          value, labels[index - 1]);
      limits.check(index, value);
    } catch (RuntimeException e) {
      throw SqlErrors.toSqlException(e);
    }
  }

  /** The JDBC type of parameter {@code index} (1-based), or {@link java.sql.Types#OTHER}. */
  int type(int index) {
    return index >= 1 && index <= types.length ? types[index - 1] : java.sql.Types.OTHER;
  }

  /** Whether parameter {@code index} (1-based) is a UUID. */
  boolean isUuid(int index) {
    return index >= 1 && index <= uuids.length && uuids[index - 1];
  }

  /** How errors name parameter {@code index}. */
  String label(int index) {
    return index >= 1 && index <= labels.length ? labels[index - 1] : "parameter " + index;
  }

  /**
   * Checks a row of values as they arrive over the wire. Their JDBC form is made with one UTC
   * calendar per row (one per value cost about a microsecond each, 16 for a row of a 16-column
   * batch); only a date or time value consults it, for its zone.
   */
  public void check(List<TypedValue> values) throws SQLException {
    Calendar utc = null;
    for (int i = 0; i < values.size(); i++) {
      TypedValue v = values.get(i);
      if (v != null && utc == null) {
        utc = Calendar.getInstance(UTC);
      }
      check(i + 1, v == null ? null : v.toJdbc(utc));
    }
  }
}
