package io.basaltdb.hibernate;

import org.hibernate.dialect.DatabaseVersion;
import org.hibernate.dialect.H2Dialect;
import org.hibernate.engine.jdbc.dialect.spi.DialectResolutionInfo;

/**
 * Hibernate's dialect for Basalt. Basalt answers the SQL Hibernate's H2 dialect writes (sequences
 * as {@code NEXT VALUE FOR}, identity columns, {@code TIMESTAMP WITH TIME ZONE}, {@code UUID},
 * foreign keys, {@code DROP TABLE ... CASCADE}, INFORMATION_SCHEMA's SEQUENCES and constraints),
 * so this is H2's dialect at the H2 version whose SQL Basalt follows, without its warning about
 * Basalt's own version number, and with the words Basalt's parser reserves (Calcite's: {@code
 * AT}, {@code REF}, {@code VALUE}, ...) registered as keywords and quoted wherever Hibernate
 * writes them (as {@code hibernate.auto_quote_keyword} would: a field named {@code at} is
 * column {@code "at"}, which H2 would take unquoted and Basalt's parser does not). Picked
 * automatically for
 * {@code jdbc:basalt:} connections ({@link BasaltDialectResolver}).
 */
public class BasaltDialect extends H2Dialect {
  /** The H2 release whose SQL Basalt answers. */
  static final DatabaseVersion H2_SQL = DatabaseVersion.make(2, 3, 232);

  /**
   * Words Basalt's parser (Calcite's) reserves, found by naming a column each (many H2 does
   * not reserve); a column so named must be quoted.
   */
  private static final String[] RESERVED = {"AT", "REF", "CORR", "VALUE", "YEAR", "MONTH",
      "DAY", "HOUR", "MINUTE", "SECOND", "RESULT", "POSITION", "LANGUAGE", "SYSTEM", "UPPER",
      "LOWER", "START", "END", "COUNT", "USER", "ORDER", "TIMESTAMP", "DATE", "TIME", "PERIOD",
      "ROWS", "RANK", "MATCH", "MEMBER", "METHOD", "SCOPE", "ELEMENT", "SEARCH", "SIMILAR",
      "SYMMETRIC", "ABS", "MIN", "MAX", "AVG", "SUM", "EVERY", "FILTER", "HOLD", "LOCAL",
      "MODULE", "NONE", "OLD", "NEW", "OUT"};

  public BasaltDialect() {
    super(H2_SQL);
  }

  /** As Hibernate makes it from the connection's metadata. */
  public BasaltDialect(DialectResolutionInfo info) {
    super(H2_SQL);
  }

  @Override
  protected void registerDefaultKeywords() {
    super.registerDefaultKeywords();
    for (String word : RESERVED) {
      registerKeyword(word);
    }
  }

  /** Keywords are quoted wherever Hibernate writes them as names. */
  @Override
  public org.hibernate.engine.jdbc.env.spi.IdentifierHelper buildIdentifierHelper(
      org.hibernate.engine.jdbc.env.spi.IdentifierHelperBuilder builder,
      java.sql.DatabaseMetaData metadata) throws java.sql.SQLException {
    builder.setAutoQuoteKeywords(true);
    return super.buildIdentifierHelper(builder, metadata);
  }

  @Override
  public DatabaseVersion getMinimumSupportedVersion() {
    return H2_SQL;
  }
}
