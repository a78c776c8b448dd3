package io.basaltdb.sql.jdbc;

import io.basaltdb.sql.parser.StatementHead;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.apache.calcite.avatica.Meta;
import org.apache.calcite.jdbc.CalcitePrepare;

/**
 * The signatures of the last texts one connection prepared (issue 40: frameworks prepare,
 * execute and close a statement per call, so the same text is prepared again and again): a text
 * prepared again at the same catalog version, default schema and row limit gets its signature
 * back without Calcite's prepare context (a snapshot of every schema per preparation) and the
 * lookups before the plan cache. Only what the database's plan cache would keep is kept (queries
 * and data changes, not EXPLAIN), and nothing while that cache is off. Owns its map; guarded by
 * its monitor (a connection may be shared, if rarely).
 */
final class RecentPrepares {
  /** The texts kept, the most recently prepared first out. */
  static final int SIZE = 64;

  private record Prepared(CalcitePrepare.CalciteSignature<?> signature, long catalogVersion,
      String schema) {}

  private record Key(String sql, long maxRowCount) {}

  private final Map<Key, Prepared> recent = new LinkedHashMap<>(16, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<Key, Prepared> eldest) {
      return size() > SIZE;
    }
  };

  /** The signature {@code sql} had when last prepared here, if it still holds; else null. */
  synchronized CalcitePrepare.CalciteSignature<?> get(String sql, long maxRowCount,
      long catalogVersion, String schema) {
    Prepared p = recent.get(new Key(sql, maxRowCount));
    return p != null && p.catalogVersion() == catalogVersion
        && Objects.equals(p.schema(), schema) ? p.signature() : null;
  }

  /** Keeps {@code signature}, prepared for {@code sql}, when a plan cache would keep it. */
  synchronized void keep(String sql, long maxRowCount, Meta.Signature signature,
      long catalogVersion, String schema) {
    if (signature instanceof CalcitePrepare.CalciteSignature<?> s && keeps(sql, s)) {
      recent.put(new Key(sql, maxRowCount), new Prepared(s, catalogVersion, schema));
    }
  }

  private static boolean keeps(String sql, CalcitePrepare.CalciteSignature<?> s) {
    Meta.StatementType type = s.statementType;
    return type != null && (type.canUpdate() || type == Meta.StatementType.SELECT)
        && !StatementHead.startsWith(sql, "EXPLAIN");
  }
}
