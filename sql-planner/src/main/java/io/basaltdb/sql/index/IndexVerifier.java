package io.basaltdb.sql.index;

import io.basaltdb.sql.catalog.SqlIndexDef;
import io.basaltdb.sql.catalog.SqlTableDef;
import io.basaltdb.storage.Cell;
import io.basaltdb.storage.ReadSnapshot;
import io.basaltdb.storage.Result;
import io.basaltdb.storage.ResultScanner;
import io.basaltdb.storage.Scan;
import io.basaltdb.storage.Storage;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Checks an index against its table both ways: every base row has its entry (key and value
 * as the row's current values give them) and every entry has its row. Both are read at one
 * database snapshot, so writers may go on meanwhile: what is checked is one instant's table
 * and index. Over a storage without snapshots that keeps indexes by the client-side protocol
 * (HBase), the table and the index are read each row at its instant, so the check is exact
 * only while no one writes; an unverified entry is checked against its row as a reader checks
 * it ({@link UnverifiedEntries}: repaired if valid, deleted if superseded, counted either way),
 * and only the entries a reader would use are compared. Stateless.
 */
public final class IndexVerifier {
  private static final int SHOWN = 20;

  private IndexVerifier() {}

  /** What a verification found: counts, and the first differences of each kind. */
  public record Report(long rows, long entries, long missing, long extra, long differing,
      List<String> examples, long unverified) {
    public boolean consistent() {
      return missing == 0 && extra == 0 && differing == 0;
    }

    @Override
    public String toString() {
      return rows + " rows, " + entries + " entries: " + missing + " rows without their entry, "
          + extra + " entries without their row, " + differing + " entries with other values"
          + (unverified == 0 ? "" : ", " + unverified + " unverified entries checked against"
              + " their rows (valid ones marked verified, superseded ones deleted)")
          + (examples.isEmpty() ? "" : "; " + String.join("; ", examples));
    }
  }

  public static Report verify(Storage db, SqlTableDef def, SqlIndexDef index) {
    return verify(db, def, index, false);
  }

  /**
   * As above; with {@code repair}, over a storage keeping indexes by the client-side protocol,
   * the row of each entry a reader cannot settle ({@link UnverifiedEntries#stuck}) is fenced
   * ({@link IndexedRowWrite#fence}: a writer that died leaves it for good, one alive starts its
   * row again) and the entry checked again: then valid and verified, or superseded and deleted.
   */
  public static Report verify(Storage db, SqlTableDef def, SqlIndexDef index, boolean repair) {
    try (ReadSnapshot snapshot = db.snapshot()) {
      return verify(db, def, index, snapshot, repair);
    }
  }

  private static Report verify(Storage db, SqlTableDef def, SqlIndexDef index,
      ReadSnapshot snapshot, boolean repair) {
    IndexedRowWrite reader = new IndexedRowWrite(db, def, List.of(), -1);
    IndexLayout layout = new IndexLayout(def, index);
    Map<byte[], byte[]> expected = new TreeMap<>(Arrays::compareUnsigned);
    long rows = 0;
    try (ResultScanner s = db.table(def.table()).getScanner(new Scan().setSnapshot(snapshot))) {
      for (Result r : s) {
        Object[] values = reader.values(r.row(), r);
        if (values != null) {
          rows++;
          expected.put(layout.entryKey(values, r.row()), layout.entryValue(values, r.row()));
        }
      }
    }
    long entries = 0;
    long extra = 0;
    long differing = 0;
    List<String> examples = new ArrayList<>();
    UnverifiedEntries checks = UnverifiedEntries.kept(db)
        ? new UnverifiedEntries(db, def, layout, db.table(index.engineTable())) : null;
    IndexedRowWrite fences = repair && checks != null
        ? new IndexedRowWrite(db, def, List.of(index), -1) : null;
    long unverified = 0;
    try (ResultScanner s = db.table(index.engineTable()).getScanner(new Scan().setSnapshot(snapshot))) {
      for (Result r : s) {
        byte[] have = r.getValue(IndexLayout.FAMILY, IndexLayout.QUALIFIER);
        if (checks != null) {
          long before = checks.checked();
          have = checks.usable(r);
          unverified += checks.checked() - before;
          if (repair && checks.checked() > before && checks.stuck()) {
            byte[] value = r.getValue(IndexLayout.FAMILY, IndexLayout.QUALIFIER);
            fences.fence(layout.baseKey(r.row(), value));
            Result again = db.table(index.engineTable()).get(new io.basaltdb.storage.Get(r.row())
                .addColumn(IndexLayout.FAMILY, IndexLayout.QUALIFIER)
                .addColumn(IndexLayout.FAMILY, IndexLayout.STATUS));
            have = again.isEmpty() ? null : checks.usable(again);
          }
          if (have == null) {
            continue; // no entry for readers: matches no row, or only a status
          }
        }
        entries++;
        byte[] want = expected.remove(r.row());
        if (want == null) {
          extra++;
          example(examples, "entry " + Cell.printable(r.row()) + " has no row");
        } else if (!Arrays.equals(want, have)) {
          differing++;
          example(examples, "entry " + Cell.printable(r.row()) + " holds other values");
        }
      }
    }
    for (byte[] k : expected.keySet()) {
      example(examples, "entry " + Cell.printable(k) + " is missing");
    }
    return new Report(rows, entries, expected.size(), extra, differing, examples, unverified);
  }

  private static void example(List<String> examples, String s) {
    if (examples.size() < SHOWN) {
      examples.add(s);
    }
  }
}
