package io.basaltdb.sql.catalog;

import io.basaltdb.storage.InvalidArgumentException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.calcite.avatica.util.ByteString;

/**
 * The cells a write of a hybrid family's MAP column makes: one cell per entry, the key as
 * qualifier (a declared column's qualifier, or the marker's, is refused: 22023), the value as
 * the cell's bytes. INSERT and UPSERT merge ({@code old} null: the entries given are put, an
 * entry whose value is NULL deletes its cell, other cells stay); UPDATE replaces (the cells of
 * keys the new map lacks are deleted too; a NULL map deletes them all). Stateless.
 */
public final class MapCells {
  /** Cells to put (qualifier, value) and qualifiers to delete. */
  public record Change(List<byte[][]> puts, List<byte[]> deletes) {}

  private MapCells() {}

  /** A map value as the column stores it: text keys, byte values; null stays null. */
  public static Map<String, ByteString> fit(SqlColumn c, Object v) {
    if (v == null) {
      return null;
    }
    if (!(v instanceof Map<?, ?> m)) {
      throw new InvalidArgumentException("not a MAP value for " + c.name() + ": " + v);
    }
    Map<String, ByteString> out = new TreeMap<>();
    for (Map.Entry<?, ?> e : m.entrySet()) {
      if (e.getKey() == null) {
        throw new InvalidArgumentException("a key of MAP column " + c.name() + " is NULL");
      }
      Object value = e.getValue();
      out.put(e.getKey().toString(), value == null ? null
          : value instanceof ByteString b ? b : value instanceof byte[] b ? new ByteString(b)
          : new ByteString(value.toString().getBytes(StandardCharsets.UTF_8)));
    }
    return out;
  }

  /** {@code old} with the entries of {@code given} merged in (a NULL value removes one). */
  public static Map<String, ByteString> merged(Map<String, ByteString> old,
      Map<String, ByteString> given) {
    if (given == null) {
      return old;
    }
    Map<String, ByteString> out = old == null ? new TreeMap<>() : new TreeMap<>(old);
    given.forEach((k, v) -> {
      if (v == null) {
        out.remove(k);
      } else {
        out.put(k, v);
      }
    });
    return out.isEmpty() ? null : out;
  }

  /** {@link #of} for values as a write gives them (fitted here). */
  public static Change change(CellNames names, SqlColumn c, int col, Object old, Object now,
      boolean replace) {
    return of(names, c, col, fit(c, old), fit(c, now), replace);
  }

  /** What writing {@code now} to map column {@code col} does to its cells. */
  static Change of(CellNames names, SqlColumn c, int col, Map<String, ByteString> old,
      Map<String, ByteString> now, boolean replace) {
    List<byte[][]> puts = new ArrayList<>();
    List<byte[]> deletes = new ArrayList<>();
    if (now != null) {
      for (Map.Entry<String, ByteString> e : now.entrySet()) {
        if (!names.mapKeyAllowed(col, e.getKey())) {
          throw new InvalidArgumentException("key '" + e.getKey() + "' of MAP column "
              + c.name() + " names a declared column of family " + c.family()
              + " (or is empty): write that column by its name");
        }
        byte[] q = e.getKey().getBytes(StandardCharsets.UTF_8);
        if (e.getValue() == null) {
          deletes.add(q);
        } else {
          puts.add(new byte[][] {q, e.getValue().getBytes()});
        }
      }
    }
    if (replace && old != null) {
      for (String k : old.keySet()) {
        if (now == null || !now.containsKey(k)) {
          deletes.add(k.getBytes(StandardCharsets.UTF_8));
        }
      }
    }
    return new Change(puts, deletes);
  }
}
