package io.basaltdb.sql.prepare;

import io.basaltdb.sql.constraint.CheckConstraints;
import io.basaltdb.sql.rel.BasaltTableModify;
import io.basaltdb.sql.schema.BasaltSqlTable;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.prepare.CalcitePrepareImpl;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql2rel.SqlRexConvertletTable;
import org.apache.calcite.sql2rel.SqlToRelConverter;
import org.apache.calcite.prepare.CalcitePrepareImpl;

/**
 * Calcite's SQL-to-rel conversion with Basalt's steps: exact arithmetic checked (22003, never
 * wrapped around); every write to a Basalt table is Basalt's table-modify (Calcite builds its
 * own for UPDATE and DELETE), with assignment casts, CHECK constraints and the hidden key; an
 * INSERT or UPSERT is marked with its keyword, the columns it names, the defaults a new row
 * gets, and its ON DUPLICATE KEY clause.
 */
final class BasaltConverter extends SqlToRelConverter {
  BasaltConverter(CalcitePrepareImpl.CalcitePreparingStmt stmt, SqlValidator validator,
      org.apache.calcite.prepare.Prepare.CatalogReader reader, RelOptCluster cluster,
      SqlRexConvertletTable convertlets, Config config) {
    super(stmt, validator, reader, cluster, convertlets, config);
  }

  /**
   * Arithmetic on exact numbers is checked: {@code BIGINT} and {@code INTEGER} sums,
   * differences, products and quotients that leave their type's range are 22003, as the
   * standard asks, instead of wrapping around (Calcite checks only under a conformance such
   * as SQL Server's, which would change much else).
   */
  @Override
  public org.apache.calcite.rel.RelRoot convertQuery(SqlNode query, boolean needsValidation,
      boolean top) {
    org.apache.calcite.rel.RelRoot root = super.convertQuery(query, needsValidation, top);
    return root.withRel(new org.apache.calcite.sql2rel.ConvertToChecked(
        root.rel.getCluster().getRexBuilder(), true).visit(root.rel));
  }

  /** UPDATE and DELETE: Calcite builds its own table-modify; Basalt's replaces it. */
  @Override
  protected org.apache.calcite.rel.RelRoot convertQueryRecursive(SqlNode query, boolean top,
      org.apache.calcite.rel.type.RelDataType targetRowType) {
    if (query instanceof org.apache.calcite.sql.SqlUpdate update) {
      BasaltSqlTable target = getTargetTable(update).unwrap(BasaltSqlTable.class);
      if (target != null) {
        io.basaltdb.sql.exec.write.AssignedLiterals.check(update, target.definition());
        io.basaltdb.sql.exec.write.GeneratedAlways.check(update, target.definition());
      }
    }
    org.apache.calcite.rel.RelRoot root = super.convertQueryRecursive(query, top,
        targetRowType);
    if (root.rel instanceof org.apache.calcite.rel.logical.LogicalTableModify m
        && m.getTable().unwrap(BasaltSqlTable.class) != null) {
      BasaltSqlTable t = m.getTable().unwrap(BasaltSqlTable.class);
      RelNode input = m.getInput();
      List<RexNode> sources = m.getSourceExpressionList();
      if (m.getOperation() == org.apache.calcite.rel.core.TableModify.Operation.UPDATE) {
        input = io.basaltdb.sql.rel.AssignmentCasts.forUpdate(input, m.getUpdateColumnList(),
            t.definition());
        sources = io.basaltdb.sql.rel.AssignmentCasts.sources(sources, input,
            m.getCluster().getRexBuilder());
        List<String> updated = m.getUpdateColumnList();
        List<RexNode> newValues = sources;
        RelNode old = input;
        input = CheckConstraints.apply(t.definition(), input, col -> updated.contains(col)
                ? newValues.get(updated.indexOf(col))
                : m.getCluster().getRexBuilder().makeInputRef(old,
                    t.definition().columnIndex(col)), null, this::convertExpression);
      }
      if (t.definition().hasHiddenKey()) {
        input = BasaltTableModify.exposeHiddenKey(input, t.definition());
      }
      return root.withRel(t.toModificationRel(m.getCluster(), m.getTable(),
          m.getCatalogReader(), input, m.getOperation(), m.getUpdateColumnList(),
          sources, m.isFlattened()));
    }
    return root;
  }

  @Override
  protected RelNode convertInsert(SqlInsert call) {
    BasaltSqlTable target = getTargetTable(call).unwrap(BasaltSqlTable.class);
    if (target != null) {
      io.basaltdb.sql.exec.write.AssignedLiterals.check(call, target.definition());
      io.basaltdb.sql.exec.write.GeneratedAlways.check(call, target.definition());
    }
    RelNode rel = super.convertInsert(call);
    if (!(rel instanceof BasaltTableModify converted)) {
      return rel;
    }
    var def = converted.getTable().unwrap(BasaltSqlTable.class).definition();
    BasaltTableModify modify = (BasaltTableModify) converted.copy(converted.getTraitSet(),
        List.of(io.basaltdb.sql.rel.AssignmentCasts.forInsert(converted.getInput(), def)));
    List<Integer> listed = null;
    List<Integer> newRowDefaults = new ArrayList<>();
    if (call.getTargetColumnList() != null) {
      listed = new ArrayList<>();
      for (SqlNode n : call.getTargetColumnList()) {
        SqlIdentifier id = (SqlIdentifier) n;
        listed.add(def.columnIndex(id.names.get(id.names.size() - 1)));
      }
      for (int i = 0; i < def.visibleColumnCount(); i++) {
        io.basaltdb.sql.catalog.SqlColumn c = def.columns().get(i);
        if (listed.contains(i) || !def.defaults().containsKey(c.name())) {
          continue;
        }
        if (!call.isUpsert() || c.name().equals(def.rowTimestamp())) {
          listed.add(i); // an INSERT makes the row: the column gets its default (a row
          // timestamp left out is the statement's time, for UPSERT too: it is in the key)
        } else {
          newRowDefaults.add(i); // a new row gets it; a row that exists keeps its value
        }
      }
    }
    if (!def.checks().isEmpty()) {
      RelNode in = modify.getInput();
      java.util.Set<String> named = null;
      if (call.isUpsert() && listed != null) {
        named = new java.util.HashSet<>();
        for (int i : listed) {
          named.add(def.columns().get(i).name());
        }
      }
      modify = (BasaltTableModify) modify.copy(modify.getTraitSet(), List.of(
          CheckConstraints.apply(def, in, col -> in.getCluster().getRexBuilder()
              .makeInputRef(in, def.columnIndex(col)), named, this::convertExpression)));
    }
    if (call instanceof io.basaltdb.sql.parser.SqlInsertOnDuplicateKey dup) {
      // a new row is written as the statement's keyword says; one that exists, by the clause
      return modify.asUpsert(true, listed).withNewRowDefaults(newRowDefaults)
          .withOnDuplicate(OnDuplicateKeys.plan(dup, def,
          validator, u -> super.convertQueryRecursive(u, false, null).rel,
          this::convertExpression, cluster.getRexBuilder()));
    }
    if (call.isUpsert() && !newRowDefaults.isEmpty()) {
      return modify.asUpsert(true, listed).withNewRowDefaults(newRowDefaults);
    }
    return call.isUpsert() || listed != null ? modify.asUpsert(call.isUpsert(), listed)
        : modify;
  }
}
