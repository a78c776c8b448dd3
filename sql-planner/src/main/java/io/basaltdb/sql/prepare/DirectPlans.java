package io.basaltdb.sql.prepare;

import io.basaltdb.sql.PlannerStats;
import io.basaltdb.sql.Switches;
import io.basaltdb.sql.catalog.SqlColumn;
import io.basaltdb.sql.catalog.SqlTableDef;
import io.basaltdb.sql.parser.StatementHead;
import io.basaltdb.sql.pushdown.KeyConditions;
import io.basaltdb.sql.pushdown.Operand;
import io.basaltdb.sql.pushdown.ScanSpec;
import io.basaltdb.sql.pushdown.WriteSpec;
import io.basaltdb.sql.rel.DirectExecution;
import io.basaltdb.sql.rel.BatchWrite;
import io.basaltdb.sql.schema.BasaltSqlTable;
import io.basaltdb.sql.type.ColumnType;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.avatica.AvaticaParameter;
import org.apache.calcite.avatica.ColumnMetaData;
import org.apache.calcite.avatica.Meta;
import org.apache.calcite.jdbc.CalcitePrepare.CalciteSignature;
import org.apache.calcite.jdbc.CalcitePrepare;
import org.apache.calcite.jdbc.CalciteSchema;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexDynamicParam;
import org.apache.calcite.runtime.Bindable;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDynamicParam;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSelect;

/**
 * Plans made without Calcite's validator, SQL-to-rel conversion and planner, for the two
 * statements a fresh JVM (and every new statement shape) most often starts with (issue 11,
 * cold start): an {@code INSERT} or {@code UPSERT ... VALUES (?, ...)} of a Basalt table (one
 * row, or many rows of parameters, {@code (?, ?), (?, ?), ...}: Calcite's path makes a union
 * of a projection per row, planned and compiled in time growing with the rows, 0.6 s for
 * 1,000; here the work per row is a check of its parameters, issue 40), and
 * {@code SELECT columns FROM t WHERE k1 = ? AND ...} naming the full primary key.
 * These are the normalized texts of literal statements ({@link SharedPlans}) as well as
 * statements users prepare. Calcite's first use in a JVM (class loading and initialization of
 * its validator, converter, metadata providers and rules) was most of the first such
 * statement's time.
 *
 * <p>Invariant: a direct plan is the plan Calcite's path makes for the same text, run the same
 * way: the write is the {@link BatchWrite} that path finds in its {@code BasaltTableModify},
 * the read the {@link ScanSpec} its rules push into the {@code BasaltScan} of a full-key
 * lookup, both run by {@link DirectExecution}; the signature's parameters and columns are
 * computed as Calcite computes them (its own column code, called by reflection). Anything
 * else, or anything unsure (a name that does not resolve exactly, a key column of a type whose
 * comparison converts, a literal, an alias, a hint, a hidden key), returns null and takes
 * Calcite's path, which reports errors as it always has. EXPLAIN always takes Calcite's path.
 * {@code -Dbasalt.directPlans=false} turns this off.
 */
final class DirectPlans {
  private DirectPlans() {}

  /** The statement's direct plan, or null when Calcite's path must plan it. */
  static <T> CalciteSignature<T> plan(BasaltPrepare prepare, io.basaltdb.storage.Storage db,
      CalcitePrepare.Context context, String sql, long maxRowCount) {
    if (sql == null || !Switches.DIRECT_PLANS.on() || !Switches.DIRECT_EXECUTION.on()
        || !CalciteColumns.AVAILABLE) {
      return null;
    }
    if (!StatementHead.startsWithPastComments(sql, "INSERT", "UPSERT", "SELECT")) {
      return null;
    }
    ParameterRows.Tail tail = writesRows(sql) ? ParameterRows.of(sql) : null;
    if (tail != null) { // the parser reads the head and the first row only
      SqlNode head = prepare.parseStatement(context, sql.substring(0, tail.headEnd()));
      CalciteSignature<T> s = head instanceof SqlInsert insert
          && !(head instanceof io.basaltdb.sql.parser.SqlInsertOnDuplicateKey)
          ? insert(context, sql, insert, maxRowCount, tail) : null;
      if (s != null) {
        PlannerStats.of(db).rowsOfParametersScanned.incrementAndGet();
        return s;
      }
    }
    if (!writesRows(sql) && !mayLookUpAKey(sql)) {
      return null; // no parse for a SELECT that cannot be one (Calcite's path parses it again)
    }
    SqlNode node = prepare.parseStatement(context, sql);
    return node instanceof SqlInsert insert
        && !(node instanceof io.basaltdb.sql.parser.SqlInsertOnDuplicateKey)
        ? insert(context, sql, insert, maxRowCount, null)
        : node instanceof SqlSelect select ? select(context, sql, select, maxRowCount) : null;
  }

  /** Whether {@code sql} begins as an INSERT or UPSERT (which may write many rows of values). */
  static boolean writesRows(String sql) {
    return StatementHead.startsWithPastComments(sql, "INSERT", "UPSERT");
  }

  /**
   * Whether a SELECT's text may be a lookup of a full key ({@link #select}): it has a WHERE and
   * no parenthesis (such a lookup names columns and compares them with parameters; a function,
   * a CAST, an IN list or a sub-query has one). A false answer is only a lost shortcut.
   */
  static boolean mayLookUpAKey(String sql) {
    if (sql.indexOf('(') >= 0) {
      return false;
    }
    for (int i = 0; i + 5 <= sql.length(); i++) {
      if (sql.regionMatches(true, i, "WHERE", 0, 5)) {
        return true;
      }
    }
    return false;
  }

  /**
   * The direct plan of an INSERT or UPSERT of rows of parameters; {@code tail} (or null): the
   * rows of parameters the text has after those {@code insert} holds, each as wide as the first.
   */
  private static <T> CalciteSignature<T> insert(CalcitePrepare.Context context, String sql,
      SqlInsert insert, long maxRowCount, ParameterRows.Tail tail) {
    if (!(insert.getTargetTable() instanceof SqlIdentifier target)
        || !(insert.getSource() instanceof SqlBasicCall values)
        || values.getKind() != SqlKind.VALUES || values.operandCount() < 1) {
      return null;
    }
    for (SqlNode row : values.getOperandList()) {
      if (row.getKind() != SqlKind.ROW) {
        return null;
      }
    }
    Resolved r = resolve(context, target);
    if (r == null) {
      return null;
    }
    SqlTableDef def = r.table.definition();
    if (!def.checks().isEmpty() || !def.generatedAlways().isEmpty()) {
      return null; // the plan's input carries the checks; the converter refuses given values
    }
    int n = def.columns().size();
    List<Integer> listed = new ArrayList<>();
    if (insert.getTargetColumnList() == null) {
      for (int i = 0; i < n; i++) {
        listed.add(i);
      }
    } else {
      for (SqlNode name : insert.getTargetColumnList()) {
        int c = name instanceof SqlIdentifier id && id.isSimple() ? column(def, id.getSimple())
            : -1;
        if (c < 0 || listed.contains(c)) {
          return null;
        }
        listed.add(c);
      }
    }
    List<SqlNode> items = ((SqlCall) values.operand(0)).getOperandList();
    int width = listed.size();
    if (items.size() != width || tail != null && tail.width() != width) {
      return null;
    }
    for (int k = 1; k < values.operandCount(); k++) { // row k: parameters k * width on, only
      List<SqlNode> more = ((SqlCall) values.operand(k)).getOperandList();
      if (more.size() != width) {
        return null;
      }
      for (int i = 0; i < width; i++) {
        if (!(more.get(i) instanceof SqlDynamicParam p) || p.getIndex() != k * width + i) {
          return null;
        }
      }
    }
    JavaTypeFactory types = context.getTypeFactory();
    Operand[] operands = new Operand[n];
    List<RelDataType> parameterTypes = new ArrayList<>();
    for (int i = 0; i < items.size(); i++) {
      SqlColumn c = def.columns().get(listed.get(i));
      if (!(items.get(i) instanceof SqlDynamicParam p) || p.getIndex() != i) {
        return null;
      }
      // Calcite types a parameter in VALUES as its target column: nothing to convert
      RelDataType type = c.sqlType(types);
      parameterTypes.add(type);
      operands[listed.get(i)] = Operand.of(new RexDynamicParam(type, i), c.type());
      if (operands[listed.get(i)] == null) {
        return null; // an ARRAY: bound by Calcite's code
      }
    }
    for (int i = 0; i < n; i++) {
      SqlColumn c = def.columns().get(i);
      if (operands[i] == null) {
        if (!c.nullable() || c.isKey() || def.defaults().containsKey(c.name())) {
          return null; // Calcite's validator reports the missing value, or fills the default
        }
        operands[i] = Operand.constant(c.type(), null);
      }
    }
    WriteSpec spec = new WriteSpec(insert.isUpsert() ? WriteSpec.Kind.UPSERT
        : WriteSpec.Kind.INSERT, listed, List.of(), List.of());
    int rows = values.operandCount() + (tail == null ? 0 : tail.rows());
    BatchWrite write = BatchWrite.ofRows(r.table, spec, List.of(operands), rows, width);
    List<RelDataType> firstRow = List.copyOf(parameterTypes);
    for (int k = 1; k < rows; k++) { // each row's parameters typed as the first row's
      parameterTypes.addAll(firstRow);
    }
    RelDataType rowType = RelOptUtil.createDmlRowType(SqlKind.INSERT, types);
    List<ColumnMetaData> columns = CalciteColumns.of(types, rowType,
        Collections.singletonList(null));
    Map<String, Object> internal = new HashMap<>();
    internal.put(BasaltPrepare.BATCH_WRITE, write);
    internal.put(PlanCache.PLAN_TABLES, new PlanCache.PlanTables(Set.of(def.table())));
    return signature(context, sql, parameterTypes, internal, rowType, columns,
        DirectExecution.write(write), maxRowCount, Meta.StatementType.INSERT);
  }

  private static <T> CalciteSignature<T> select(CalcitePrepare.Context context, String sql,
      SqlSelect select, long maxRowCount) {
    if (!(select.getFrom() instanceof SqlIdentifier from) || select.getWhere() == null
        || !isEmpty((SqlNodeList) select.getOperandList().get(0)) || !isEmpty(select.getGroup())
        || select.getHaving() != null || !isEmpty(select.getWindowList())
        || !isEmpty(select.getOrderList()) || select.getOffset() != null
        || select.getFetch() != null || select.hasHints() || select.getQualify() != null) {
      return null;
    }
    Resolved r = resolve(context, from);
    if (r == null) {
      return null;
    }
    SqlTableDef def = r.table.definition();
    // the output columns
    List<Integer> columns = new ArrayList<>();
    for (SqlNode item : select.getSelectList()) {
      if (!(item instanceof SqlIdentifier id)) {
        return null;
      }
      if (id.isStar() && id.names.size() == 1 && select.getSelectList().size() == 1) {
        for (int i = 0; i < def.visibleColumnCount(); i++) {
          columns.add(i);
        }
      } else {
        int c = id.isSimple() ? column(def, id.getSimple()) : -1;
        if (c < 0 || columns.contains(c)) {
          return null; // a repeated column is renamed by Calcite's validator
        }
        columns.add(c);
      }
    }
    // the key: each key column equal to a parameter, nothing else
    List<SqlColumn> keys = def.keyColumns();
    Operand[] keyValues = new Operand[keys.size()];
    Map<Integer, RelDataType> parameterTypes = new HashMap<>();
    JavaTypeFactory types = context.getTypeFactory();
    List<SqlNode> conjuncts = new ArrayList<>();
    conjuncts(select.getWhere(), conjuncts);
    for (SqlNode c : conjuncts) {
      if (c.getKind() != SqlKind.EQUALS) {
        return null;
      }
      SqlNode a = ((SqlCall) c).operand(0);
      SqlNode b = ((SqlCall) c).operand(1);
      SqlIdentifier id = (SqlIdentifier) (a instanceof SqlIdentifier ? a
          : b instanceof SqlIdentifier ? b : null);
      SqlDynamicParam p = (SqlDynamicParam) (a instanceof SqlDynamicParam ? a
          : b instanceof SqlDynamicParam ? b : null);
      int col = id != null && p != null && id.isSimple() ? column(def, id.getSimple()) : -1;
      if (col < 0 || !def.columns().get(col).isKey()) {
        return null;
      }
      SqlColumn k = def.columns().get(col);
      if (!exactKeyType(k.type()) || keyValues[k.keyPosition()] != null
          || parameterTypes.containsKey(p.getIndex())) {
        return null;
      }
      // Calcite types the parameter as the column it is compared with
      RelDataType type = k.sqlType(types);
      parameterTypes.put(p.getIndex(), type);
      keyValues[k.keyPosition()] = Operand.of(new RexDynamicParam(type, p.getIndex()), k.type());
    }
    List<RelDataType> parameters = new ArrayList<>();
    for (int i = 0; i < parameterTypes.size(); i++) {
      if (!parameterTypes.containsKey(i)) {
        return null;
      }
      parameters.add(parameterTypes.get(i));
    }
    List<List<Operand>> equalities = new ArrayList<>();
    for (Operand v : keyValues) {
      if (v == null) {
        return null; // not the full key: the planner decides how to scan
      }
      equalities.add(List.of(v));
    }
    ScanSpec spec = ScanSpec.all(def)
        .withFilter(new KeyConditions(equalities, List.of()), List.of())
        .withColumns(columns);
    var row = types.builder();
    List<List<String>> origins = new ArrayList<>();
    for (int c : columns) {
      SqlColumn column = def.columns().get(c);
      row.add(column.name(), column.sqlType(types));
      List<String> origin = new ArrayList<>(r.qualifiedName);
      origin.add(column.name());
      origins.add(origin);
    }
    RelDataType rowType = row.build();
    Map<String, Object> internal = new HashMap<>();
    internal.put(PlanCache.PLAN_TABLES, new PlanCache.PlanTables(Set.of(def.table())));
    return signature(context, sql, parameters, internal, rowType,
        CalciteColumns.of(types, rowType, origins),
        DirectExecution.scan(r.table, spec, columns.size() == 1), maxRowCount,
        Meta.StatementType.SELECT);
  }

  /**
   * Key column types compared without conversion: integers, and VARCHAR (a CHAR key compares
   * padded, a DECIMAL or floating-point key by value across scales, a DATE or TIMESTAMP
   * parameter converts: the planner handles those).
   */
  private static boolean exactKeyType(ColumnType t) {
    return switch (t) {
      case TINYINT, SMALLINT, INTEGER, BIGINT, VARCHAR -> true;
      default -> false;
    };
  }

  private static void conjuncts(SqlNode n, List<SqlNode> out) {
    if (n.getKind() == SqlKind.AND) {
      for (SqlNode o : ((SqlCall) n).getOperandList()) {
        conjuncts(o, out);
      }
    } else {
      out.add(n);
    }
  }

  private static boolean isEmpty(SqlNodeList l) {
    return l == null || l.isEmpty();
  }

  /** The column's index, matched exactly (the parser applied the connection's casing), or -1. */
  private static int column(SqlTableDef def, String name) {
    for (int i = 0; i < def.visibleColumnCount(); i++) {
      if (def.columns().get(i).name().equals(name)) {
        return i;
      }
    }
    return -1;
  }

  /** A Basalt table and its name as Calcite's catalog reader qualifies it. */
  private record Resolved(BasaltSqlTable table, List<String> qualifiedName) {}

  /**
   * The Basalt table a name denotes, looked up as Calcite's catalog reader does (under the
   * default schema, then from the root), names matched exactly; null for anything else (a
   * view, a system table, a name only a case-insensitive match finds).
   */
  private static Resolved resolve(CalcitePrepare.Context context, SqlIdentifier id) {
    if (id.isStar()) {
      return null;
    }
    List<List<String>> paths = new ArrayList<>();
    List<String> withDefault = new ArrayList<>(context.getDefaultSchemaPath());
    withDefault.addAll(id.names);
    paths.add(withDefault);
    paths.add(id.names);
    for (List<String> path : paths) {
      CalciteSchema schema = context.getRootSchema();
      for (int i = 0; i < path.size() - 1 && schema != null; i++) {
        schema = schema.getSubSchema(path.get(i), true);
      }
      if (schema == null) {
        continue;
      }
      CalciteSchema.TableEntry entry = schema.getTable(path.get(path.size() - 1), true);
      if (entry != null) {
        if (!(entry.getTable() instanceof BasaltSqlTable t) || t.definition().hasHiddenKey()) {
          return null;
        }
        return new Resolved(t, path);
      }
    }
    return null;
  }

  @SuppressWarnings("unchecked")
  private static <T> CalciteSignature<T> signature(CalcitePrepare.Context context, String sql,
      List<RelDataType> parameterTypes, Map<String, Object> internal, RelDataType rowType,
      List<ColumnMetaData> columns, DirectExecution run, long maxRowCount,
      Meta.StatementType type) {
    List<AvaticaParameter> parameters = new ArrayList<>();
    for (int i = 0; i < parameterTypes.size(); i++) {
      parameters.add(CalciteColumns.parameter(parameterTypes.get(i), "?" + i));
    }
    Meta.CursorFactory cursor = Meta.CursorFactory.deduce(columns,
        (Class<?>) run.getElementType());
    return new CalciteSignature<>(sql, parameters, internal, rowType, columns, cursor,
        context.getRootSchema(), List.of(), maxRowCount, (Bindable<T>) (Bindable<?>) run, type);
  }
}
