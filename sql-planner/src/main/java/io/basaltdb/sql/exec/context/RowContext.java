package io.basaltdb.sql.exec.context;

import org.apache.calcite.DataContext;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.linq4j.QueryProvider;
import org.apache.calcite.schema.SchemaPlus;

/**
 * A statement's context with one more named value: a row as its {@code inputRecord} (what
 * expressions compiled by Calcite's {@code RexExecutorImpl} read their input fields from, while
 * their parameters and the statement's time still come from the statement), or an
 * {@link Analysis}.
 */
public final class RowContext implements DataContext {
  private final DataContext statement;
  private final String name;
  private final Object value;

  public RowContext(DataContext statement, Object[] row) {
    this(statement, "inputRecord", row);
  }

  public RowContext(DataContext statement, String name, Object value) {
    this.statement = statement;
    this.name = name;
    this.value = value;
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
    return this.name.equals(name) ? value : statement.get(name);
  }
}
