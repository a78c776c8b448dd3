package io.basaltdb.sql.prepare;

import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;
import org.apache.calcite.avatica.util.Quoting;
import org.apache.calcite.config.CalciteConnectionConfig;
import org.apache.calcite.jdbc.CalcitePrepare;
import org.apache.calcite.jdbc.CalciteSchema;

/**
 * The connection settings that change how a statement parses and validates (lexical policy,
 * quoting, casing, conformance), read once per connection: Calcite makes a new configuration
 * object each time it is asked and parses each setting from the connection's properties, which
 * cost a cached statement more than its lookup. A connection's settings are fixed when it
 * opens; they are kept by its root schema, and forgotten with it.
 *
 * @param quoting how identifiers are quoted
 * @param key all of them in words, a part of plan and statement-shape cache keys
 */
record ParserSettings(Quoting quoting, String key) {
  private static final Map<CalciteSchema, ParserSettings> BY_CONNECTION =
      Collections.synchronizedMap(new WeakHashMap<>());

  static ParserSettings of(CalcitePrepare.Context context) {
    CalciteSchema connection = context.getMutableRootSchema();
    ParserSettings s = BY_CONNECTION.get(connection);
    if (s == null) {
      CalciteConnectionConfig c = context.config();
      s = new ParserSettings(c.quoting(), c.lex() + "/" + c.quoting() + "/" + c.unquotedCasing()
          + "/" + c.quotedCasing() + "/" + c.conformance() + "/" + c.caseSensitive());
      BY_CONNECTION.put(connection, s);
    }
    return s;
  }
}
