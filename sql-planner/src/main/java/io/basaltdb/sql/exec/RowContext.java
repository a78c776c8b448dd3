package io.basaltdb.sql.exec;

import org.apache.calcite.DataContext;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.linq4j.QueryProvider;
import org.apache.calcite.schema.SchemaPlus;

/**
 * A statement's context with one row as its {@code inputRecord}: what expressions compiled by
 * Calcite's {@code RexExecutorImpl} read their input fields from, while their parameters and
 * the statement's time still come from the statement.
 */
final class RowContext implements DataContext {
  private final DataContext statement;
  private final Object[] row;

  RowContext(DataContext statement, Object[] row) {
    this.statement = statement;
    this.row = row;
  }

  @Override
  public SchemaPlus getRootSchema() {
    return statement.getRootSchema();
  }

  @Override
  public JavaTypeFactory getTypeFactory() {
    return statement.getTypeFactory();
  }

  @Override
  public QueryProvider getQueryProvider() {
    return statement.getQueryProvider();
  }

  @Override
  public Object get(String name) {
    return "inputRecord".equals(name) ? row : statement.get(name);
  }
}
