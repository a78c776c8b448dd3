package io.basaltdb.jdbc;

import io.basaltdb.sql.jdbc.ColumnObjects;
import io.basaltdb.sql.jdbc.Instants;
import io.basaltdb.sql.jdbc.ParameterObjects;
import org.apache.calcite.avatica.remote.TypedValue;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.UUID;

/**
 * The values Avatica's wire format has no type for, made right for a {@code jdbc:basalt:remote:}
 * client. A TIMESTAMP WITH TIME ZONE (an instant) travels as a TIMESTAMP, which Avatica's client
 * reads in its own zone; its number is the instant, so such a column ({@code
 * TIMESTAMP_WITH_LOCAL_TIME_ZONE} in the metadata) is read from it: {@code getObject} an
 * {@link OffsetDateTime} at UTC, {@code getTimestamp} the instant, the JDBC type
 * {@code TIMESTAMP_WITH_TIMEZONE}, as the embedded driver answers. An instant bound to such a
 * parameter goes as its milliseconds; a {@link UUID} as its text (the server reads it back).
 * JDBC 4.2's local types, which Avatica's client neither binds nor reads: a {@link LocalDate},
 * {@link LocalTime} or {@link LocalDateTime} bound to a DATE, TIME or TIMESTAMP parameter goes
 * as that type's value read in UTC (so no zone shifts it), and {@code getObject(i,
 * LocalDate.class)} (or the time types) of such a column reads it back the same way: the value
 * stored, whatever the client's or the connection's zone, as the embedded driver gives it.
 * Avatica's client converts {@code getObject(i, type)} to no class at all, and binds few
 * objects: every other {@code getObject(i, type)} is the embedded driver's
 * ({@link ColumnObjects}, over this result set's getters), and {@code setObject} converts as
 * the embedded driver does ({@link ParameterObjects}) in the client's zone.
 */
final class RemoteValues {
  private static final String INSTANT = Instants.CALCITE_TYPE_NAME;
  private static final long MILLIS_PER_DAY = 86_400_000L;

  private RemoteValues() {}

  static Statement statement(java.sql.Connection self, Statement st) {
    Class<?> type = st instanceof PreparedStatement ? PreparedStatement.class : Statement.class;
    Statement[] proxy = new Statement[1];
    proxy[0] = (Statement) Proxy.newProxyInstance(RemoteValues.class.getClassLoader(),
        new Class<?>[] {type}, new RemoteConnections.Forward(st, (m, a) -> switch (m.getName()) {
          case "getConnection" -> self;
          case "executeQuery", "getResultSet", "getGeneratedKeys" ->
              resultSet(proxy[0], (ResultSet) m.invoke(st, a));
          case "setObject" -> bound((PreparedStatement) st, m, a);
          default -> RemoteConnections.NOT_MINE;
        }));
    return proxy[0];
  }

  /**
   * {@code setObject}, in all its forms, as the embedded driver binds it: an instant or UUID as
   * the wire carries it; any other object converted to the parameter's (or the target's) type
   * by {@link ParameterObjects} (java.time, {@code java.util.Date}, text as dates, numbers as
   * text, ...) and bound as that type's value read in UTC, so no zone shifts it; else Avatica's
   * client's own binding ({@link java.sql.SQLType} targets as their type numbers, which that
   * client does not take).
   */
  private static Object bound(PreparedStatement st, Method m, Object[] a) throws SQLException {
    int i = (Integer) a[0];
    Object v = a[1];
    Integer target = a.length < 3 ? null : a[2] instanceof Integer n ? n
        : a[2] instanceof java.sql.SQLType t ? t.getVendorTypeNumber() : null;
    if (v instanceof UUID u) {
      st.setString(i, u.toString());
      return null;
    }
    Instant instant = v instanceof Instant t ? t : v instanceof OffsetDateTime t ? t.toInstant()
        : v instanceof ZonedDateTime t ? t.toInstant() : null;
    if (instant != null && INSTANT.equals(st.getParameterMetaData().getParameterTypeName(i))) {
      st.setLong(i, instant.toEpochMilli());
      return null;
    }
    int type = target != null ? target : st.getParameterMetaData().getParameterType(i);
    TypedValue converted = ParameterObjects.convert(v, type, java.time.ZoneId::systemDefault,
        "parameter " + i);
    if (converted != null) {
      Object n = converted.value;
      switch (converted.type) {
        case JAVA_SQL_DATE -> st.setDate(i, new java.sql.Date(((Number) n).longValue()
            * MILLIS_PER_DAY), utc());
        case JAVA_SQL_TIME -> st.setTime(i, new java.sql.Time(((Number) n).longValue()), utc());
        case JAVA_SQL_TIMESTAMP -> st.setTimestamp(i, new Timestamp(((Number) n).longValue()),
            utc());
        case STRING -> st.setString(i, (String) n);
        default -> st.setObject(i, n);
      }
      return null;
    }
    if (a.length == 2 && v != null && org.apache.calcite.avatica.ColumnMetaData.Rep.of(
        v.getClass()) == org.apache.calcite.avatica.ColumnMetaData.Rep.OBJECT) {
      st.setObject(i, v, type); // converted by the client to the parameter's type (BigInteger)
      return null;
    }
    if (a.length > 2 && a[2] instanceof java.sql.SQLType) { // Avatica's client takes numbers only
      if (a.length > 3) {
        st.setObject(i, v, target, (Integer) a[3]);
      } else {
        st.setObject(i, v, target);
      }
      return null;
    }
    return RemoteConnections.NOT_MINE;
  }

  private static java.util.Calendar utc() {
    return java.util.Calendar.getInstance(java.util.TimeZone.getTimeZone(ZoneOffset.UTC));
  }

  private static ResultSet resultSet(Statement owner, ResultSet rs) throws SQLException {
    if (rs == null) {
      return null;
    }
    ResultSetMetaData md = rs.getMetaData();
    boolean[] instant = new boolean[md.getColumnCount() + 1];
    boolean[] uuid = new boolean[instant.length];
    int[] local = new int[instant.length]; // a DATE, TIME or TIMESTAMP column: its type
    for (int i = 1; i < instant.length; i++) {
      instant[i] = INSTANT.equals(md.getColumnTypeName(i));
      uuid[i] = "UUID".equals(md.getColumnTypeName(i));
      int type = md.getColumnType(i);
      local[i] = !instant[i] && (type == Types.DATE || type == Types.TIME
          || type == Types.TIMESTAMP) ? type : 0;
    }
    ResultSetMetaData metadata = (ResultSetMetaData) Proxy.newProxyInstance(
        RemoteValues.class.getClassLoader(), new Class<?>[] {ResultSetMetaData.class},
        new RemoteConnections.Forward(md, (m, a) -> a == null || !(a[0] instanceof Integer i)
            || !instant[i] ? RemoteConnections.NOT_MINE : switch (m.getName()) {
              case "getColumnType" -> Types.TIMESTAMP_WITH_TIMEZONE;
              case "getColumnTypeName" -> Instants.SQL_TYPE_NAME;
              case "getColumnClassName" -> OffsetDateTime.class.getName();
              default -> RemoteConnections.NOT_MINE;
            }));
    ResultSet[] self = new ResultSet[1];
    self[0] = (ResultSet) Proxy.newProxyInstance(RemoteValues.class.getClassLoader(),
        new Class<?>[] {ResultSet.class}, new RemoteConnections.Forward(rs, (m, a) -> {
          if (m.getName().equals("getMetaData") && a == null) {
            return metadata;
          } else if (m.getName().equals("getStatement") && a == null) {
            return owner;
          }
          if (a == null || a.length == 0 || !m.getName().startsWith("get")) {
            return RemoteConnections.NOT_MINE;
          }
          int i = a[0] instanceof Integer n ? n : rs.findColumn((String) a[0]);
          boolean typed = m.getName().equals("getObject") && a.length > 1
              && a[1] instanceof Class<?>;
          if (instant[i]) {
            Object v = instantValue(rs, i, m.getName(), a.length > 1 ? a[1] : null);
            return v != RemoteConnections.NOT_MINE || !typed ? v
                : ColumnObjects.get(self[0], i, (Class<?>) a[1], java.util.TimeZone.getDefault());
          }
          if (uuid[i] && m.getName().equals("getObject") && a.length > 1
              && a[1] == UUID.class) {
            String text = rs.getString(i);
            return text == null ? null : UUID.fromString(text);
          }
          if (local[i] == Types.TIMESTAMP && m.getName().equals("getString")) {
            long millis = rs.getLong(i); // as the embedded driver prints it
            return rs.wasNull() ? null : ColumnObjects.timestampText(millis);
          }
          if (typed && a[1] instanceof Class<?> type) {
            Object v = local[i] != 0 ? localValue(rs, i, local[i], type)
                : RemoteConnections.NOT_MINE;
            // Avatica's client converts to no class: every other pair as the embedded driver
            return v != RemoteConnections.NOT_MINE ? v
                : ColumnObjects.get(self[0], i, type, java.util.TimeZone.getDefault());
          }
          return RemoteConnections.NOT_MINE;
        }));
    return self[0];
  }

  /**
   * A DATE, TIME or TIMESTAMP column's value as the local type {@code type} (from the number the
   * wire carries): its own type, a TIMESTAMP's date or time, a DATE's midnight, as the embedded
   * driver gives them; not this layer's for other types.
   */
  private static Object localValue(ResultSet rs, int i, int column, Class<?> type)
      throws SQLException {
    boolean wanted = type == LocalDate.class && column != Types.TIME
        || type == LocalTime.class && column != Types.DATE
        || type == LocalDateTime.class && column != Types.TIME;
    if (!wanted) {
      return RemoteConnections.NOT_MINE;
    }
    // the number on the wire (days, milliseconds of the day, local milliseconds): no zone
    // (Avatica's date conversions mix in the default zone of their first use)
    long n = rs.getLong(i);
    LocalDateTime t;
    if (rs.wasNull()) {
      t = null;
    } else if (column == Types.DATE) {
      t = LocalDate.ofEpochDay(n).atStartOfDay();
    } else if (column == Types.TIME) {
      t = LocalDate.EPOCH.atTime(LocalTime.ofNanoOfDay(Math.floorMod(n, MILLIS_PER_DAY)
          * 1_000_000));
    } else {
      t = LocalDateTime.ofEpochSecond(Math.floorDiv(n, 1000),
          (int) Math.floorMod(n, 1000) * 1_000_000, ZoneOffset.UTC);
    }
    return t == null ? null : type == LocalDate.class ? t.toLocalDate()
        : type == LocalTime.class ? t.toLocalTime() : t;
  }

  /** An instant column's value as {@code getter} gives it (typed: {@code type}). */
  private static Object instantValue(ResultSet rs, int i, String getter, Object type)
      throws SQLException {
    long ms = rs.getLong(i);
    if (rs.wasNull()) {
      return null;
    }
    OffsetDateTime t = Instants.offsetDateTime(ms);
    return switch (getter) {
      case "getObject" -> type == null || type == OffsetDateTime.class ? t
          : type == Instant.class ? t.toInstant()
          : type == ZonedDateTime.class ? t.toZonedDateTime()
          : type == Timestamp.class ? new Timestamp(ms)
          : type == java.time.LocalDateTime.class ? t.atZoneSameInstant(
              java.time.ZoneId.systemDefault()).toLocalDateTime()
          : type == String.class ? t.toString() : RemoteConnections.NOT_MINE;
      case "getTimestamp" -> new Timestamp(ms);
      case "getString" -> Instants.text(ms);
      case "getLong" -> ms;
      default -> RemoteConnections.NOT_MINE; // the others as Avatica gives them
    };
  }
}
