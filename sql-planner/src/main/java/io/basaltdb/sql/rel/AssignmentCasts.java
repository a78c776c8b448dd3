package io.basaltdb.sql.rel;

import io.basaltdb.sql.catalog.SqlTableDef;
import io.basaltdb.sql.type.ColumnType;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeFamily;

/**
 * Values a write computes for VARCHAR, VARBINARY and DECIMAL columns reach the writer whole.
 * Calcite casts what an INSERT's query or an UPDATE's SET computes to the column's type, and
 * its cast cuts a string or binary value that is too long and rounds away a number's digits
 * past a DECIMAL's scale, so the writer would store a changed value without a word; without
 * the cast, the writer's check ({@code ColumnValues.fit}) refuses it (22001, 22003) naming the
 * column. Only casts that can cut are taken away: to a declared length from a longer or
 * unbounded value of the same family, and to a DECIMAL from an exact number with more digits
 * after the point or before it. CHAR and BINARY keep theirs, which pad; a cast from an
 * approximate number (DOUBLE) to a DECIMAL stays (a binary fraction has no exact decimal
 * digits to keep: it is rounded to the scale); a statement's own CAST or ROUND is its choice.
 */
public final class AssignmentCasts {
  private AssignmentCasts() {}

  /** An INSERT's input (the table's row, field i to column i) without its cutting casts. */
  public static RelNode forInsert(RelNode input, SqlTableDef def) {
    int[] columns = new int[def.columns().size()];
    java.util.Arrays.setAll(columns, i -> i);
    return widen(input, columns, def);
  }

  /**
   * An UPDATE's input (the table's columns, then one new value per updated column) without the
   * cutting casts of its new values.
   */
  public static RelNode forUpdate(RelNode input, List<String> updated, SqlTableDef def) {
    int columns = def.columns().size();
    int[] target = new int[input.getRowType().getFieldCount()];
    java.util.Arrays.fill(target, -1);
    for (int u = 0; u < updated.size() && columns + u < target.length; u++) {
      target[columns + u] = def.columnIndex(updated.get(u));
    }
    return widen(input, target, def);
  }

  /**
   * The write's input with the cutting casts of its projection taken away:
   * {@code columnOfField[i]} is the table column field {@code i} is written to, or -1.
   */
  private static RelNode widen(RelNode input, int[] columnOfField, SqlTableDef def) {
    if (!(input instanceof org.apache.calcite.rel.core.Project p)) {
      return input;
    }
    List<RexNode> exprs = new ArrayList<>(p.getProjects());
    boolean changed = false;
    for (int i = 0; i < exprs.size() && i < columnOfField.length; i++) {
      int col = columnOfField[i];
      if (col >= 0 && unpadded(def.columns().get(col).type())) {
        RexNode e = def.columns().get(col).isArray()
            ? arrayElements(exprs.get(i), p.getCluster().getRexBuilder())
            : uncut(exprs.get(i));
        if (e != exprs.get(i)) {
          exprs.set(i, e);
          changed = true;
        }
      }
    }
    if (!changed) {
      return input;
    }
    return LogicalProject.create(p.getInput(), p.getHints(), exprs,
        p.getRowType().getFieldNames(), p.getVariablesSet());
  }

  /** An UPDATE's source expressions over the widened input: its field references remade. */
  public static List<RexNode> sources(List<RexNode> sources, RelNode widened, RexBuilder rb) {
    if (sources == null) {
      return null;
    }
    List<RexNode> out = new ArrayList<>();
    for (RexNode s : sources) {
      out.add(s instanceof RexInputRef ref ? rb.makeInputRef(widened, ref.getIndex()) : s);
    }
    return out;
  }

  private static boolean unpadded(ColumnType t) {
    return t == ColumnType.VARCHAR || t == ColumnType.VARBINARY || t == ColumnType.DECIMAL
        || t == ColumnType.ARRAY; // an array's elements: see cuts
  }

  /**
   * An array written to an ARRAY column with its elements whole: an {@code ARRAY[...]}
   * constructor remade of its elements without the casts that would cut, round or pad them
   * (Calcite types {@code ARRAY['ab', 'c']} as CHAR(2) and pads {@code 'c'}; a string element
   * becomes VARCHAR here, as the other databases type string literals), a NULL element typed
   * as the others; then an outer cast to the column's type dropped where it could cut an
   * element. The writer fits each element to the column's element type (22001, 22003).
   */
  private static RexNode arrayElements(RexNode e, RexBuilder rb) {
    RexNode x = e;
    while (x.getKind() == SqlKind.CAST) {
      x = ((RexCall) x).getOperands().get(0);
    }
    if (x.getKind() != SqlKind.ARRAY_VALUE_CONSTRUCTOR) {
      return uncut(e);
    }
    var types = rb.getTypeFactory();
    List<RexNode> elements = new ArrayList<>();
    List<RelDataType> elementTypes = new ArrayList<>();
    for (RexNode op : ((RexCall) x).getOperands()) {
      RexNode el = op;
      while (el.getKind() == SqlKind.CAST
          && (cuts(((RexCall) el).getOperands().get(0).getType(), el.getType())
              || el.getType().getSqlTypeName() == org.apache.calcite.sql.type.SqlTypeName.CHAR)) {
        el = ((RexCall) el).getOperands().get(0);
      }
      RelDataType t = el.getType();
      if (t.getSqlTypeName() == org.apache.calcite.sql.type.SqlTypeName.CHAR) {
        t = types.createTypeWithNullability(types.createSqlType(
            org.apache.calcite.sql.type.SqlTypeName.VARCHAR, t.getPrecision()), t.isNullable());
      }
      elements.add(el);
      if (t.getSqlTypeName() != org.apache.calcite.sql.type.SqlTypeName.NULL) {
        elementTypes.add(t);
      }
    }
    RelDataType element = elementTypes.isEmpty() ? e.getType().getComponentType()
        : types.leastRestrictive(elementTypes);
    if (element == null) {
      return uncut(e);
    }
    element = types.createTypeWithNullability(element, true);
    List<RexNode> cast = new ArrayList<>();
    for (RexNode el : elements) {
      cast.add(el.getType().equals(element) ? el : rb.makeCast(element, el, true, false));
    }
    RelDataType arrayType = types.createTypeWithNullability(types.createArrayType(element, -1),
        e.getType().isNullable());
    RexNode remade = rb.makeCall(arrayType,
        org.apache.calcite.sql.fun.SqlStdOperatorTable.ARRAY_VALUE_CONSTRUCTOR, cast);
    return cuts(arrayType, e.getType()) ? remade : rb.makeCast(e.getType(), remade, true, false);
  }

  /** {@code e} without an outer cast that could cut it; else {@code e} itself. */
  private static RexNode uncut(RexNode e) {
    if (e.getKind() != SqlKind.CAST) {
      return e;
    }
    RexNode operand = ((RexCall) e).getOperands().get(0);
    return cuts(operand.getType(), e.getType()) ? operand : e;
  }

  /**
   * Whether a cast from {@code from} to {@code to} could cut or round a value; for arrays,
   * whether it could cut an element (the writer fits each element to the column's).
   */
  private static boolean cuts(RelDataType from, RelDataType to) {
    if (to.getComponentType() != null) {
      return from.getComponentType() != null
          && unpaddedType(to.getComponentType().getSqlTypeName())
          && cuts(from.getComponentType(), to.getComponentType());
    }
    SqlTypeFamily family = to.getSqlTypeName().getFamily();
    boolean sameFamily = family == from.getSqlTypeName().getFamily()
        && (family == SqlTypeFamily.CHARACTER || family == SqlTypeFamily.BINARY);
    boolean canCut = to.getPrecision() != RelDataType.PRECISION_NOT_SPECIFIED
        && (from.getPrecision() == RelDataType.PRECISION_NOT_SPECIFIED
            || from.getPrecision() > to.getPrecision());
    if (to.getSqlTypeName() == org.apache.calcite.sql.type.SqlTypeName.DECIMAL) {
      return exact(from) && (from.getScale() > Math.max(0, to.getScale())
          || integerDigits(from) > integerDigits(to));
    }
    return sameFamily && canCut;
  }

  private static boolean unpaddedType(org.apache.calcite.sql.type.SqlTypeName t) {
    return t == org.apache.calcite.sql.type.SqlTypeName.VARCHAR
        || t == org.apache.calcite.sql.type.SqlTypeName.VARBINARY
        || t == org.apache.calcite.sql.type.SqlTypeName.DECIMAL;
  }

  private static boolean exact(RelDataType t) {
    return switch (t.getSqlTypeName()) {
      case TINYINT, SMALLINT, INTEGER, BIGINT, DECIMAL -> true;
      default -> false;
    };
  }

  private static int integerDigits(RelDataType t) {
    return switch (t.getSqlTypeName()) {
      case TINYINT -> 3;
      case SMALLINT -> 5;
      case INTEGER -> 10;
      case BIGINT -> 19;
      default -> t.getPrecision() - Math.max(0, t.getScale());
    };
  }
}
