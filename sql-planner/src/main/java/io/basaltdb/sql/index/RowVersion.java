package io.basaltdb.sql.index;

import io.basaltdb.sql.catalog.CellNames;
import io.basaltdb.storage.Cell;
import io.basaltdb.storage.CellType;
import io.basaltdb.storage.CheckAndMutate;
import io.basaltdb.storage.CompareOperator;
import io.basaltdb.storage.Delete;
import io.basaltdb.storage.Durability;
import io.basaltdb.storage.Mutation;
import io.basaltdb.storage.Put;
import io.basaltdb.storage.Result;
import io.basaltdb.storage.Row;
import io.basaltdb.storage.RowMutations;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * A data row's version under the client-side index protocol ({@link ClientIndexProtocol}): the
 * cell {@code _ver} of its marker family, 8 bytes, a count every protocol write replaces with
 * the next (missing: 0), at the write's timestamp; and the version-checked write of a row (phase
 * 2), whose cells all carry that one timestamp. Stateless.
 */
final class RowVersion {
  private RowVersion() {}

  /** The newest timestamp among {@code row}'s cells (0 for none). */
  static long newest(Result row) {
    long newest = 0;
    for (Cell c : row.cells()) {
      newest = Math.max(newest, c.timestamp());
    }
    return newest;
  }

  /**
   * Phase 2 of the row {@code key} read as {@code read}: {@code mutation} (null: none) with every
   * cell at {@code ts} and the row's next version, if its version cell still holds what was read
   * (none: still none). A row delete keeps the version, a millisecond later, and a delete of
   * some families or columns goes a millisecond earlier, still above every cell the row held
   * ({@code ts} is): HBase hides a put under a marker of its own mutation at or above its
   * timestamp, and a transaction's row may delete a family, then write it again.
   */
  static CheckAndMutate checkedWrite(byte[] markerFamily, byte[] key, Result read, Row mutation,
      long ts, Durability d) {
    Cell version = read.getLatestCell(markerFamily, CellNames.VERSION);
    long v = version == null ? 0 : ByteBuffer.wrap(version.value()).getLong();
    RowMutations rm = new RowMutations(key);
    long versionTs = ts;
    List<Mutation> parts = new ArrayList<>();
    if (mutation instanceof RowMutations m) {
      parts.addAll(m.mutations());
    } else if (mutation != null) {
      parts.add((Mutation) mutation);
    }
    for (Mutation m : parts) {
      if (m instanceof Delete del && del.cells().isEmpty()) {
        rm.add(new Delete(key, ts).setDurability(d));
        versionTs = ts + 1;
      } else if (m instanceof Delete del) {
        Delete restamped = new Delete(key, ts - 1);
        for (Cell c : del.cells()) {
          restamp(restamped, c, ts - 1);
        }
        rm.add(restamped.setDurability(d));
      } else if (m instanceof Put put) {
        Put restamped = new Put(key);
        for (Cell c : put.cells()) {
          restamped.addColumn(c.family(), c.qualifier(), ts, c.value());
        }
        rm.add(restamped.setDurability(d));
      } else {
        throw new IllegalStateException("an indexed row's write cannot hold " + m);
      }
    }
    rm.add(new Put(key).addColumn(markerFamily, CellNames.VERSION, versionTs,
        ByteBuffer.allocate(8).putLong(v + 1).array()).setDurability(d));
    CheckAndMutate.Builder when = CheckAndMutate.newBuilder(key);
    if (version == null) {
      when.ifNotExists(markerFamily, CellNames.VERSION);
    } else {
      when.ifMatches(markerFamily, CellNames.VERSION, CompareOperator.EQUAL, version.value());
    }
    return when.build(rm);
  }

  private static void restamp(Delete out, Cell c, long ts) {
    if (c.type() == CellType.DELETE_COLUMN) {
      out.addColumns(c.family(), c.qualifier(), ts);
    } else if (c.type() == CellType.DELETE_FAMILY) {
      out.addFamily(c.family(), ts);
    } else {
      throw new IllegalStateException("an indexed row's write cannot delete one version of "
          + Cell.printable(c.qualifier()));
    }
  }
}
