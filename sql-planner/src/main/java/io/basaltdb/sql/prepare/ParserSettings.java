package io.basaltdb.sql.prepare;

import io.basaltdb.sql.ConnectionRoot;
import org.apache.calcite.avatica.util.Quoting;
import org.apache.calcite.config.CalciteConnectionConfig;
import org.apache.calcite.jdbc.CalcitePrepare;

/**
 * The connection settings that change how a statement parses and validates (lexical policy,
 * quoting, casing, conformance), read once per connection: Calcite makes a new configuration
 * object each time it is asked and parses each setting from the connection's properties, which
 * cost a cached statement more than its lookup. A connection's settings are fixed when it
 * opens; they are kept by the connection ({@link ConnectionRoot#extension}), and go with it.
 *
 * @param quoting how identifiers are quoted
 * @param key all of them in words, a part of plan and statement-shape cache keys
 */
record ParserSettings(Quoting quoting, String key) {
  static ParserSettings of(CalcitePrepare.Context context) {
    ConnectionRoot connection = ConnectionRoot.of(context.getMutableRootSchema());
    return connection == null ? read(context.config())
        : connection.extension(ParserSettings.class, () -> read(context.config()));
  }

  private static ParserSettings read(CalciteConnectionConfig c) {
    return new ParserSettings(c.quoting(), c.lex() + "/" + c.quoting() + "/" + c.unquotedCasing()
        + "/" + c.quotedCasing() + "/" + c.conformance() + "/" + c.caseSensitive());
  }
}
