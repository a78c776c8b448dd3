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
 * and index. Stateless.
 */
public final class IndexVerifier {
  private static final int SHOWN = 20;

  private IndexVerifier() {}

  /** What a verification found: counts, and the first differences of each kind. */
  public record Report(long rows, long entries, long missing, long extra, long differing,
      List<String> examples) {
    public boolean consistent() {
      return missing == 0 && extra == 0 && differing == 0;
    }

    @Override
    public String toString() {
      return rows + " rows, " + entries + " entries: " + missing + " rows without their entry, "
          + extra + " entries without their row, " + differing + " entries with other values"
          + (examples.isEmpty() ? "" : "; " + String.join("; ", examples));
    }
  }

  public static Report verify(Storage db, SqlTableDef def, SqlIndexDef index) {
    try (ReadSnapshot snapshot = db.snapshot()) {
      return verify(db, def, index, snapshot);
    }
  }

  private static Report verify(Storage db, SqlTableDef def, SqlIndexDef index,
      ReadSnapshot snapshot) {
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
    try (ResultScanner s = db.table(index.engineTable()).getScanner(new Scan().setSnapshot(snapshot))) {
      for (Result r : s) {
        entries++;
        byte[] want = expected.remove(r.row());
        byte[] have = r.getValue(IndexLayout.FAMILY, IndexLayout.QUALIFIER);
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
    return new Report(rows, entries, expected.size(), extra, differing, examples);
  }

  private static void example(List<String> examples, String s) {
    if (examples.size() < SHOWN) {
      examples.add(s);
    }
  }
}
