package io.basaltdb.sql.prepare;

import io.basaltdb.sql.StorageSchema;
import io.basaltdb.sql.PlannerStats;
import io.basaltdb.sql.SqlStateException;
import io.basaltdb.sql.SqlStates;
import io.basaltdb.sql.Switches;
import io.basaltdb.sql.catalog.CatalogVersion;
import io.basaltdb.sql.ddl.BackupStatement;
import io.basaltdb.sql.parser.StatementHead;
import io.basaltdb.sql.schema.BasaltSchema;
import io.basaltdb.storage.Storage;
import java.lang.reflect.Type;
import java.util.List;
import org.apache.calcite.adapter.enumerable.EnumerableConvention;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.jdbc.CalcitePrepare;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.prepare.CalciteCatalogReader;
import org.apache.calcite.prepare.CalcitePrepareImpl;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql2rel.SqlRexConvertletTable;
import org.apache.calcite.sql2rel.SqlToRelConverter;

/**
 * Calcite's statement preparation with Basalt's steps in the SQL-to-rel conversion: every
 * write to a Basalt table becomes Basalt's table-modify (Calcite builds its own for UPDATE and
 * DELETE), and an INSERT or UPSERT is marked with the statement's keyword and the columns it
 * names (Calcite's {@code TableModify} has no UPSERT and forgets which columns were named,
 * which an UPSERT must know to leave the others alone).
 */
public class BasaltPrepare extends CalcitePrepareImpl {
  /** The internal parameter under which a statement's {@link io.basaltdb.sql.rel.BatchWrite} is. */
  static final String BATCH_WRITE = "basaltBatchWrite";

  /**
   * While this preparation plans the statement of an EXPLAIN ANALYZE, where its plan goes
   * (else null). Calcite makes a preparation per statement, so this is the statement's own.
   */
  private ExplainAnalyze.Planned analyzing;

  /**
   * Plans a statement: a statement whose literals can be parameters shares the plan of its
   * normalized text ({@link SharedPlans}); any other is planned, or its plan reused, by its
   * own text.
   */
  @Override
  public <T> CalciteSignature<T> prepareSql(CalcitePrepare.Context context,
      CalcitePrepare.Query<T> query, Type elementType, long maxRowCount) {
    Storage db = query.sql == null ? null
        : StorageSchema.of(context.getMutableRootSchema());
    if (db == null) {
      return super.prepareSql(context, query, elementType, maxRowCount);
    }
    // the connection's schemas and this statement's snapshot of them
    BasaltSchema.syncStatement(db, context.getMutableRootSchema(), context.getRootSchema());
    String analyzed = ExplainAnalyze.statement(query.sql);
    if (analyzed != null) {
      SqlNode node = parseStatement(context, analyzed);
      if (node != null && node.getKind().belongsTo(org.apache.calcite.sql.SqlKind.DDL)) {
        throw new SqlStateException(SqlStates.FEATURE_NOT_SUPPORTED,
            "EXPLAIN ANALYZE runs a query or a DML "
            + "statement, not DDL: " + analyzed);
      }
      return ExplainAnalyze.prepare(context, query.sql, analyzed, (inner, planned) -> {
        analyzing = planned;
        try {
          return super.prepareSql(context, CalcitePrepare.Query.of(inner), elementType,
              maxRowCount);
        } finally {
          analyzing = null;
        }
      });
    }
    if (TransactionStatements.matches(query.sql) // first: a data context costs microseconds
        && context.getDataContext().getQueryProvider()
            instanceof org.apache.calcite.jdbc.CalciteConnection c
        && TransactionStatements.run(c, db, query.sql)) {
      return directSignature(query.sql);
    }
    if (BackupStatement.matches(query.sql)
        && context.getDataContext().getQueryProvider()
            instanceof org.apache.calcite.jdbc.CalciteConnection c) {
      BackupStatement.run(c, db, query.sql);
      return directSignature(query.sql);
    }
    CalciteSignature<T> ddl = ddlWithoutPlanner(context, query.sql);
    if (ddl != null) {
      return ddl;
    }
    CalciteSignature<T> shared = SharedPlans.prepare(db, context, query.sql,
        sql -> planOrReuse(db, context, CalcitePrepare.Query.of(sql), elementType,
            maxRowCount, false),
        sql -> planOrReuse(db, context, CalcitePrepare.Query.of(sql), elementType,
            maxRowCount, true));
    return shared != null ? shared
        : planOrReuse(db, context, query, elementType, maxRowCount, false);
  }

  /**
   * DDL runs as soon as it is parsed, as Calcite's own path does it, but without first making
   * the planner, cluster and rules Calcite makes for every statement (a fresh JVM's first
   * CREATE TABLE paid their set-up); null for anything that is not DDL.
   */
  private <T> CalciteSignature<T> ddlWithoutPlanner(CalcitePrepare.Context context, String sql) {
    if (!ddlWord(sql)) {
      return null;
    }
    SqlNode node = parseStatement(context, sql);
    if (node == null || !node.getKind().belongsTo(org.apache.calcite.sql.SqlKind.DDL)) {
      return null;
    }
    executeDdl(context, node);
    return directSignature(sql);
  }

  /** The signature of a statement that ran as it was prepared: no rows, update count 0. */
  private static <T> CalciteSignature<T> directSignature(String sql) {
    return new CalciteSignature<>(sql, com.google.common.collect.ImmutableList.of(),
        com.google.common.collect.ImmutableMap.of(), null,
        com.google.common.collect.ImmutableList.of(),
        org.apache.calcite.avatica.Meta.CursorFactory.OBJECT, null,
        com.google.common.collect.ImmutableList.of(), -1, null,
        org.apache.calcite.avatica.Meta.StatementType.OTHER_DDL);
  }

  /**
   * The statement parsed as Calcite's path parses it (the connection's parser and lexical
   * settings), or null when it does not parse: Calcite's path then reports the error as it
   * always has.
   */
  public SqlNode parseStatement(CalcitePrepare.Context context, String sql) {
    var config = context.config();
    org.apache.calcite.sql.parser.SqlParser.Config parserConfig = parserConfig()
        .withQuotedCasing(config.quotedCasing())
        .withUnquotedCasing(config.unquotedCasing())
        .withQuoting(config.quoting())
        .withConformance(config.conformance())
        .withCaseSensitive(config.caseSensitive());
    var factory = config.parserFactory(org.apache.calcite.sql.parser.SqlParserImplFactory.class,
        null);
    if (factory != null) {
      parserConfig = parserConfig.withParserFactory(factory);
    }
    try {
      return createParser(sql, parserConfig).parseStmt();
    } catch (org.apache.calcite.sql.parser.SqlParseException e) {
      return null;
    }
  }

  /**
   * Whether {@code sql} may run as it is prepared, changing things, by a look at its first word:
   * transaction control ({@link TransactionStatements}) or DDL. A prepared statement defers such
   * a statement to its executions.
   */
  public static boolean mayRunWhenPrepared(String sql) {
    return ddlWord(sql) || TransactionStatements.matches(sql) || BackupStatement.matches(sql);
  }

  /** Whether {@code sql} begins with a word DDL begins with (CREATE, DROP, ALTER, ...). */
  static boolean ddlWord(String sql) {
    return StatementHead.startsWith(sql, "CREATE", "DROP", "ALTER",
        "TRUNCATE", "COMMENT");
  }

  /**
   * Whether {@code sql} runs as it is prepared: transaction control, or DDL (checked by parsing
   * it: a syntax error is a {@code 42000}).
   */
  public boolean runsWhenPrepared(CalcitePrepare.Context context, String sql) {
    if (TransactionStatements.matches(sql) || BackupStatement.matches(sql)) {
      return true;
    }
    if (!ddlWord(sql)) {
      return false;
    }
    SqlNode node = parseStatement(context, sql);
    if (node == null) {
      throw new SqlStateException(SqlStates.SYNTAX_ERROR, "cannot parse " + sql);
    }
    return node.getKind().belongsTo(org.apache.calcite.sql.SqlKind.DDL);
  }

  /**
   * Plans a statement, or reuses the plan of the same SQL text made for the same database
   * ({@link PlanCache}), default schema and catalog version: planning and compiling a simple
   * query costs milliseconds, and BI tools repeat their SQL through plain statements. Only
   * queries and DML are kept (DDL runs as it is prepared); a plan binds its parameters and
   * connection settings at each execution, so it is safe to share. {@code directOnly}: a plan
   * made without Calcite's planner ({@link DirectPlans}) or one kept, else null.
   */
  @SuppressWarnings("unchecked")
  private <T> CalciteSignature<T> planOrReuse(Storage db, CalcitePrepare.Context context,
      CalcitePrepare.Query<T> query, Type elementType, long maxRowCount, boolean directOnly) {
    PlanCache plans = PlanCache.of(db);
    long version = CatalogVersion.current(db);
    PlanCache.Key key = new PlanCache.Key(List.copyOf(context.getDefaultSchemaPath()),
        query.sql, elementType, maxRowCount, ParserSettings.of(context).key());
    CalciteSignature<?> cached = plans.get(db, key, version);
    if (cached != null) {
      return (CalciteSignature<T>) cached;
    }
    CalciteSignature<T> s = DirectPlans.plan(this, db, context, query.sql, maxRowCount);
    if (s != null) {
      PlannerStats stats = PlannerStats.of(db);
      stats.directPlans.incrementAndGet();
      stats.directExecutions.incrementAndGet();
    } else if (directOnly) {
      return null; // only a direct plan was asked for (a statement of many rows of values)
    } else {
      s = super.prepareSql(context, query, elementType, maxRowCount);
    }
    if (s.statementType != null && (s.statementType.canUpdate()
        || s.statementType == org.apache.calcite.avatica.Meta.StatementType.SELECT)
        && version == CatalogVersion.current(db)) {
      plans.put(key, s, version);
    }
    return s;
  }

  /**
   * Calcite's planner as {@code CalcitePrepareImpl} makes it (executor, convention and
   * collation traits, top-down option, default rules, the test hook), but its default rules
   * registered only when something is planned by it ({@link DeferredRulesPlanner}).
   */
  @Override
  protected RelOptPlanner createPlanner(CalcitePrepare.Context prepareContext,
      org.apache.calcite.plan.Context externalContext,
      org.apache.calcite.plan.RelOptCostFactory costFactory) {
    org.apache.calcite.plan.Context context = externalContext != null ? externalContext
        : org.apache.calcite.plan.Contexts.of(prepareContext.config());
    boolean materializations = prepareContext.config().materializationsEnabled();
    DeferredRulesPlanner[] made = new DeferredRulesPlanner[1];
    made[0] = new DeferredRulesPlanner(costFactory, context,
        PlannerStats.of(StorageSchema.of(prepareContext.getRootSchema())),
        () -> org.apache.calcite.plan.RelOptUtil.registerDefaultRules(made[0],
            materializations, enableBindable));
    DeferredRulesPlanner planner = made[0];
    planner.setExecutor(new org.apache.calcite.rex.RexExecutorImpl(
        org.apache.calcite.DataContexts.EMPTY));
    planner.addRelTraitDef(org.apache.calcite.plan.ConventionTraitDef.INSTANCE);
    if (org.apache.calcite.config.CalciteSystemProperty.ENABLE_COLLATION_TRAIT.value()) {
      planner.addRelTraitDef(org.apache.calcite.rel.RelCollationTraitDef.INSTANCE);
    }
    planner.setTopDownOpt(prepareContext.config().topDownOpt());
    org.apache.calcite.runtime.Hook.PLANNER.run(planner);
    return planner;
  }

  @Override
  protected CalcitePreparingStmt getPreparingStmt(CalcitePrepare.Context context,
      Type elementType, CalciteCatalogReader catalogReader, RelOptPlanner planner) {
    EnumerableRel.Prefer prefer = elementType == Object[].class
        ? EnumerableRel.Prefer.ARRAY : EnumerableRel.Prefer.CUSTOM;
    RelOptCluster cluster = createCluster(planner,
        new BasaltRexBuilder(context.getTypeFactory()));
    // Basalt's join row counts from the start: a metadata query, once made, keeps the
    // providers it was made with
    cluster.setMetadataProvider(io.basaltdb.sql.rel.metadata.JoinCardinality.PROVIDER);
    // reflective handlers until the compiled ones are ready (a fresh JVM's first statements)
    cluster.setMetadataQuerySupplier(io.basaltdb.sql.rel.metadata.MetadataHandlers.supplier());
    cluster.invalidateMetadataQuery();
    SqlRexConvertletTable convertlets = createConvertletTable();
    return new CalcitePreparingStmt(this, context, catalogReader, context.getTypeFactory(),
        context.getRootSchema(), prefer, cluster, EnumerableConvention.INSTANCE, convertlets) {
      /**
       * A plan that is only a Basalt scan, or a write of one row of literals and parameters,
       * runs without generated code ({@link io.basaltdb.sql.rel.DirectExecution}); any other
       * is compiled as Calcite does, with {@link io.basaltdb.sql.rel.Guard}s reading its
       * operators' inputs (cancel flag, memory budget; off with {@code -Dbasalt.guards=false})
       * and its BIGINT sums checked ({@link io.basaltdb.sql.rel.CheckedSums}).
       */
      @Override
      protected PreparedResult implement(org.apache.calcite.rel.RelRoot root) {
        java.util.Set<io.basaltdb.storage.TableName> tables =
            io.basaltdb.sql.rel.TablesOfPlan.of(root.rel);
        if (tables != null) {
          CalciteInternals.putInternalParameter(this, PlanCache.PLAN_TABLES,
              new PlanCache.PlanTables(tables));
        }
        var direct = !Switches.DIRECT_EXECUTION.on()
            || analyzing != null ? null : io.basaltdb.sql.rel.DirectExecution.of(root);
        if (direct == null || (direct.batchWrite() != null
            && !CalciteInternals.putInternalParameter(this, BATCH_WRITE, direct.batchWrite()))) {
          var checked = root.withRel(io.basaltdb.sql.rel.CheckedSums.apply(
              ExplainAnalyze.instrument(analyzing, io.basaltdb.sql.rel.SoleRead.mark(root.rel))));
          return compiled(!Switches.GUARDS.on() ? checked
              : checked.withRel(io.basaltdb.sql.rel.Guard.insert(checked.rel)));
        }
        PlannerStats.of(StorageSchema.of(context.getRootSchema())).directExecutions
            .incrementAndGet();
        return result(root, direct, direct.getElementType());
      }

      /**
       * The plan's generated code, compiled as Calcite's {@code implement} compiles it but
       * through {@link GeneratedCode} (Janino's model of the runtime's classes kept between
       * compilations); Calcite's own path where this one cannot follow it.
       */
      private PreparedResult compiled(org.apache.calcite.rel.RelRoot root) {
        java.util.Map<String, Object> parameters = CalciteInternals.internalParameters(this);
        if (parameters == null || resultConvention != EnumerableConvention.INSTANCE
            || context.spark().enabled()) {
          return super.implement(root);
        }
        org.apache.calcite.runtime.Hook.PLAN_BEFORE_IMPLEMENTATION.run(root);
        org.apache.calcite.adapter.enumerable.EnumerableRel rel =
            (org.apache.calcite.adapter.enumerable.EnumerableRel) root.rel;
        if (!root.isRefTrivial()) { // the root's fields, as the statement's columns name them
          org.apache.calcite.rex.RexBuilder rex = rel.getCluster().getRexBuilder();
          List<org.apache.calcite.rex.RexNode> fields = new java.util.ArrayList<>();
          for (int f : org.apache.calcite.util.Pair.left(root.fields)) {
            fields.add(rex.makeInputRef(rel, f));
          }
          rel = org.apache.calcite.adapter.enumerable.EnumerableCalc.create(rel,
              org.apache.calcite.rex.RexProgram.create(rel.getRowType(), fields, null,
                  root.validatedRowType, rex));
        }
        org.apache.calcite.runtime.Bindable<?> bindable;
        try {
          CatalogReader.THREAD_LOCAL.set(catalogReader);
          parameters.put("_conformance", context.config().conformance());
          bindable = GeneratedCode.toBindable(parameters, rel, prefer,
              () -> PlannerStats.of(StorageSchema.of(context.getRootSchema())).compiledPlans
                  .incrementAndGet());
        } finally {
          CatalogReader.THREAD_LOCAL.remove();
        }
        return result(root, bindable,
            ((org.apache.calcite.runtime.Typed) bindable).getElementType());
      }

      private PreparedResult result(org.apache.calcite.rel.RelRoot root,
          org.apache.calcite.runtime.Bindable<?> bindable, Type elementType) {
        boolean isDml = root.kind.belongsTo(org.apache.calcite.sql.SqlKind.DML);
        return new PreparedResultImpl(root.rel.getRowType(), parameterRowType, fieldOrigins,
            root.collation.getFieldCollations().isEmpty() ? List.of() : List.of(root.collation),
            root.rel, mapTableModOp(isDml, root.kind), isDml) {
          @Override
          public String getCode() {
            throw new UnsupportedOperationException();
          }

          @Override
          public org.apache.calcite.runtime.Bindable getBindable(
              org.apache.calcite.avatica.Meta.CursorFactory cursorFactory) {
            return bindable;
          }

          @Override
          public Type getElementType() {
            return elementType;
          }
        };
      }

      /** Calcite's validator with Basalt's implicit casts ({@link BasaltTypeCoercion}). */
      @Override
      protected SqlValidator createSqlValidator(CatalogReader reader,
          java.util.function.UnaryOperator<SqlValidator.Config> transform) {
        return super.createSqlValidator(reader, c -> transform.apply(c)
            .withTypeCoercionFactory(io.basaltdb.sql.type.BasaltTypeCoercion::new));
      }

      @Override
      protected SqlToRelConverter getSqlToRelConverter(SqlValidator validator,
          CatalogReader reader, SqlToRelConverter.Config config) {
        return new BasaltConverter(this, validator, reader, cluster, convertlets,
            config.withHintStrategyTable(io.basaltdb.sql.rel.IndexHint.STRATEGIES));
      }

      /**
       * {@link PlanPrograms#standard}; a statement the short path takes as it comes never makes
       * it ({@link ShortPath#first}).
       */
      @Override
      protected org.apache.calcite.tools.Program getProgram() {
        return PlanPrograms.standard(planner);
      }
    };
  }

  /**
   * Calcite's convertlets, but {@code NEXT VALUE FOR seq} becomes a draw from the sequence's
   * engine counter ({@link io.basaltdb.sql.exec.Sequences}); {@code CURRENT VALUE FOR} is not
   * supported.
   */
  @Override
  protected SqlRexConvertletTable createConvertletTable() {
    SqlRexConvertletTable standard = super.createConvertletTable();
    return call -> {
      var op = call.getOperator();
      if (op == org.apache.calcite.sql.fun.SqlStdOperatorTable.NEXT_VALUE) {
        return (cx, c) -> {
          SqlIdentifier id = c.operand(0);
          var table = ((org.apache.calcite.prepare.Prepare.CatalogReader) cx.getValidator()
              .getCatalogReader()).getTable(id.names);
          List<String> name = table == null ? id.names : table.getQualifiedName();
          var rb = cx.getRexBuilder();
          return rb.makeCall(io.basaltdb.sql.exec.Sequences.NEXT_VALUE,
              rb.makeLiteral(name.get(name.size() - 2)), rb.makeLiteral(name.get(name.size() - 1)));
        };
      }
      if (op == org.apache.calcite.sql.fun.SqlStdOperatorTable.CURRENT_VALUE) {
        return (cx, c) -> {
          throw new UnsupportedOperationException("CURRENT VALUE FOR is not supported; "
              + "use the value NEXT VALUE FOR returned");
        };
      }
      return standard.get(call);
    };
  }
}
