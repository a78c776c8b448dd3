package io.basaltdb.sql.parser;

import io.basaltdb.sql.ddl.BasaltDdlExecutor;
import io.basaltdb.sql.parser.impl.LimitedParser;
import java.io.Reader;
import org.apache.calcite.server.DdlExecutor;
import org.apache.calcite.sql.parser.SqlAbstractParserImpl;
import org.apache.calcite.sql.parser.SqlParserImplFactory;

/**
 * Basalt's parser and DDL executor for Calcite connections: set the connection property
 * {@code parserFactory=io.basaltdb.sql.parser.BasaltParserFactory#INSTANCE}. Parsed statements
 * pass {@link StatementLimits}; a parser that runs out of stack (thousands of nested
 * parentheses) reports 54001 instead of "parse failed: null".
 */
public final class BasaltParserFactory implements SqlParserImplFactory {
  public static final BasaltParserFactory INSTANCE = new BasaltParserFactory();

  private BasaltParserFactory() {}

  @Override
  public SqlAbstractParserImpl getParser(Reader reader) {
    return LimitedParser.create(reader);
  }

  @Override
  public DdlExecutor getDdlExecutor() {
    return BasaltDdlExecutor.INSTANCE;
  }
}
