package io.basaltdb.sql.parser.impl;

import io.basaltdb.sql.SqlStates;
import io.basaltdb.sql.SqlStateException;
import io.basaltdb.sql.parser.StatementLimits;
import java.io.Reader;
import java.util.regex.Pattern;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParserImplFactory;
import org.apache.calcite.util.SourceStringReader;

/**
 * The generated parser with {@link StatementLimits} applied to what it parses, and a stack
 * overflow (thousands of nested parentheses) reported as 54001 rather than "parse failed:
 * null". In the generated parser's package for its input stream field.
 */
public final class LimitedParser extends BasaltSqlParserImpl {
  private static final Pattern NEGATIVE_LIMIT = Pattern.compile(
      "(?i)\\b(LIMIT|FETCH\\s+(FIRST|NEXT))\\s+-\\s*\\d");
  private static final Pattern NEGATIVE_OFFSET = Pattern.compile("(?i)\\bOFFSET\\s+-\\s*\\d");

  /**
   * Makes these parsers, for code that parses only (the connection's factory, which adds the
   * DDL executor, is {@code ddl.BasaltParserFactory}).
   */
  public static final SqlParserImplFactory FACTORY = LimitedParser::create;

  private String sql;

  private LimitedParser(Reader reader) {
    super(reader);
  }

  /** A parser for {@code reader}, set up as the generated factory sets up its own. */
  public static LimitedParser create(Reader reader) {
    if (reader instanceof SourceStringReader s) {
      String hinted = io.basaltdb.sql.parser.HintText.withCommas(s.getSourceString());
      String extended = io.basaltdb.sql.parser.SqlCompatibility.withEmptyLists(
          io.basaltdb.sql.parser.DynamicColumns.withExtend(hinted));
      if (!extended.equals(s.getSourceString())) {
        // Phoenix's hints and dynamic columns, empty IN lists, in Calcite's grammar
        reader = new SourceStringReader(extended);
      }
    }
    LimitedParser parser = new LimitedParser(reader);
    if (reader instanceof SourceStringReader s) {
      String sql = s.getSourceString();
      parser.setOriginalSql(sql);
      parser.sql = sql;
      parser.jj_input_stream.ReInit(reader, 1, 1, sql.length());
    }
    return parser;
  }

  /**
   * The connection's conformance, but typed columns after a table name allowed (Phoenix's
   * dynamic columns: {@link io.basaltdb.sql.parser.DynamicColumns}).
   */
  @Override
  public void setConformance(org.apache.calcite.sql.validate.SqlConformance conformance) {
    super.setConformance(new org.apache.calcite.sql.validate.SqlDelegatingConformance(
        conformance) {
      @Override
      public boolean allowExtend() {
        return true;
      }
    });
  }

  @Override
  public SqlNode parseSqlStmtEof() throws Exception {
    try {
      return io.basaltdb.sql.parser.SqlCompatibility.rewritten(
          io.basaltdb.sql.parser.DynamicColumns.named(io.basaltdb.sql.parser.ArrayLiterals
          .unpadded(StatementLimits.check(super.parseSqlStmtEof()), sql), sql), sql);
    } catch (StackOverflowError e) {
      throw SqlStateException.tooComplex("it nests too deeply to parse");
    }
  }

  @Override
  public SqlNodeList parseSqlStmtList() throws Exception {
    try {
      SqlNodeList list = super.parseSqlStmtList();
      StatementLimits.check(list);
      io.basaltdb.sql.parser.ArrayLiterals.unpadded(list, sql);
      io.basaltdb.sql.parser.SqlCompatibility.rewritten(list, sql);
      return list;
    } catch (StackOverflowError e) {
      throw SqlStateException.tooComplex("it nests too deeply to parse");
    }
  }

  @Override
  public SqlParseException normalizeException(Throwable ex) {
    if (ex instanceof SqlStateException s) {
      throw s; // keeps its SQLState instead of becoming a parse error
    }
    // the grammar takes only unsigned numbers there; a negative one is a data exception
    if (sql != null && NEGATIVE_LIMIT.matcher(sql).find()) {
      throw new SqlStateException(SqlStates.INVALID_LIMIT,
          "LIMIT/FETCH must not be negative: " + sql);
    }
    if (sql != null && NEGATIVE_OFFSET.matcher(sql).find()) {
      throw new SqlStateException(SqlStates.INVALID_OFFSET, "OFFSET must not be negative: " + sql);
    }
    return super.normalizeException(ex);
  }
}
