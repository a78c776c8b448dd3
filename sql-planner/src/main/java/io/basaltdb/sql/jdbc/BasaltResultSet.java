package io.basaltdb.sql.jdbc;

import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.TimeZone;
import org.apache.calcite.avatica.AvaticaResultSet;
import org.apache.calcite.avatica.AvaticaStatement;
import org.apache.calcite.avatica.Meta;
import org.apache.calcite.avatica.QueryState;

/**
 * A Basalt result set: Avatica's over the rows {@link BasaltMeta#createIterable} enumerates,
 * with errors met while reading rows (a scan's storage error, a failed cast) reported as
 * {@link SQLException}s carrying Basalt's SQLStates instead of escaping unchecked.
 */
final class BasaltResultSet extends AvaticaResultSet {
  BasaltResultSet(AvaticaStatement statement, QueryState state, Meta.Signature signature,
      ResultSetMetaData metaData, TimeZone timeZone, Meta.Frame firstFrame)
      throws SQLException {
    super(statement, state, signature, metaData, timeZone, firstFrame);
  }

  @Override
  public boolean next() throws SQLException {
    return Translated.call(() -> super.next());
  }
}
