package io.basaltdb.sql.ddl;

import io.basaltdb.sql.parser.impl.LimitedParser;
import java.io.Reader;
import org.apache.calcite.server.DdlExecutor;
import org.apache.calcite.sql.parser.SqlAbstractParserImpl;
import org.apache.calcite.sql.parser.SqlParserImplFactory;

/**
 * Basalt's parser and DDL executor for Calcite connections: set the connection property
 * {@code parserFactory=io.basaltdb.sql.ddl.BasaltParserFactory#INSTANCE}. It sits with the DDL
 * it runs, as Calcite's own {@code ServerDdlExecutor.PARSER_FACTORY} does; the parser is
 * {@link LimitedParser} (code that only parses uses {@link LimitedParser#FACTORY}).
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
