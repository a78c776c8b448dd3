package io.basaltdb.sql.exec.write;

import io.basaltdb.sql.SqlStateException;
import io.basaltdb.sql.SqlStates;
import io.basaltdb.sql.catalog.CellNames;
import io.basaltdb.sql.catalog.ColumnValues;
import io.basaltdb.sql.catalog.SqlColumn;
import io.basaltdb.sql.catalog.SqlTableDef;
import io.basaltdb.sql.exec.context.ConnectionSettings;
import io.basaltdb.sql.pushdown.Operand;
import io.basaltdb.sql.pushdown.WriteSpec;
import io.basaltdb.sql.type.ColumnType;
import io.basaltdb.storage.CheckAndMutate;
import io.basaltdb.storage.CounterOverflowException;
import io.basaltdb.storage.Durability;
import io.basaltdb.storage.Get;
import io.basaltdb.storage.Increment;
import io.basaltdb.storage.InvalidArgumentException;
import io.basaltdb.storage.Mutation;
import io.basaltdb.storage.Put;
import io.basaltdb.storage.Result;
import io.basaltdb.storage.Table;
import java.util.List;
import org.apache.calcite.DataContext;

/**
 * {@code c = c + n} of an UPDATE, never losing a concurrent update: an engine increment on a
 * BIGINT cell (an 8-byte counter; past its range 22003 and nothing changed), a compare-and-set
 * loop on other numeric cells, and by a statement's full key the increment without reading the
 * row first. A NULL stays NULL ({@code NULL + n} is NULL). Stateless but for its table.
 */
final class CounterWrites {
  private static final int CAS_ATTEMPTS = 10_000;

  private final Table table;
  private final SqlTableDef def;
  private final CellNames names;
  private final ConnectionSettings settings;

  CounterWrites(Table table, SqlTableDef def, CellNames names, ConnectionSettings settings) {
    this.table = table;
    this.def = def;
    this.names = names;
    this.settings = settings;
  }

  private static <M extends Mutation> M durable(M m, Durability d) {
    m.setDurability(d);
    return m;
  }

  /**
   * {@code UPDATE .. SET c = c + n WHERE <full key>} without reading the row: one engine
   * increment applied only while {@code c} has a value, under the row's lock (a value means
   * the row exists: every write of a row writes its marker). 1 when applied; null when it was
   * not (no such row, or {@code c} is NULL: counts 1 and stays NULL) or the key or amount is
   * not plain, and the statement runs the ordinary way, which reads the row and decides.
   */
  Long addToCounter(WriteSpec spec, DataContext ctx, Durability durability) {
    List<SqlColumn> keyColumns = def.keyColumns();
    List<List<Operand>> keyValues = spec.counterKey().equalities();
    Object[] key = new Object[keyColumns.size()];
    Object amount;
    try {
      for (int k = 0; k < key.length; k++) {
        SqlColumn c = keyColumns.get(k);
        Object v = keyValues.get(k).get(0).bind(ctx);
        if (v == null) {
          return null;
        }
        key[k] = c.type().toKey(ColumnValues.fit(c, v));
      }
      amount = spec.increments().get(0).bind(ctx);
    } catch (RuntimeException e) {
      return null; // a key value that does not fit: the ordinary way finds no row
    }
    if (!(amount instanceof Long || amount instanceof Integer || amount instanceof Short
        || amount instanceof Byte)) {
      return null;
    }
    byte[] row = def.keyCodec().encode(key);
    int col = spec.updated().get(0);
    byte[] family = names.family(col);
    byte[] qualifier = names.qualifier(col);
    boolean applied;
    try {
      applied = table.checkAndMutate(CheckAndMutate.newBuilder(row).ifExists(family, qualifier)
          .build(durable(new Increment(row).addColumn(family, qualifier,
              ((Number) amount).longValue()), durability)));
    } catch (CounterOverflowException e) {
      throw overflow(col, e);
    }
    if (!applied) {
      return null;
    }
    return 1L; // synced itself when SYNC
  }

  /** {@code col = col + amount}, atomically; at cell timestamp {@code ts} when not -1. */
  void increment(byte[] key, int col, Object amount, Durability durability, long ts) {
    if (amount == null) {
      throw new InvalidArgumentException("cannot add NULL to " + def.columns().get(col).name()
          + " with an atomic increment");
    }
    ColumnType type = def.columns().get(col).type();
    if (type == ColumnType.BIGINT && settings.writeTimestamp() < 0 && ts < 0) {
      try {
        table.increment(durable(new Increment(key).addColumn(names.family(col),
            names.qualifier(col), ((Number) amount).longValue()), durability));
      } catch (CounterOverflowException e) {
        throw overflow(col, e);
      }
      return;
    }
    for (int attempt = 0; attempt < CAS_ATTEMPTS; attempt++) {
      Result r = table.get(new Get(key).addColumn(names.family(col), names.qualifier(col)));
      byte[] old = r.getValue(names.family(col), names.qualifier(col));
      if (old == null) {
        return; // NULL (or a row deleted meanwhile) stays as it is
      }
      Object sum = ColumnValues.fit(def.columns().get(col),
          ColumnValues.add(type, type.fromCell(old), amount));
      Put put = new Put(key);
      long at = ts >= 0 ? ts : settings.writeTimestamp(); // -1: the write's time
      if (at >= 0) {
        put.addColumn(names.family(col), names.qualifier(col), at, type.toCell(sum));
      } else {
        put.addColumn(names.family(col), names.qualifier(col), type.toCell(sum));
      }
      if (table.checkAndMutate(CheckAndMutate.newBuilder(key)
          .ifEquals(names.family(col), names.qualifier(col), old)
          .build(durable(put, durability)))) {
        return;
      }
    }
    throw new io.basaltdb.storage.BasaltException("increment of " + def.columns().get(col).name()
        + " kept losing to concurrent writers") {
      private static final long serialVersionUID = 1L;
    };
  }

  private SqlStateException overflow(int col,
      CounterOverflowException e) {
    SqlStateException o = new SqlStateException(SqlStates.NUMERIC_OUT_OF_RANGE,
        "numeric value out of range for "
        + def.columns().get(col).name() + " (BIGINT) of " + def.table() + ": " + e.getMessage());
    o.initCause(e);
    return o;
  }
}
