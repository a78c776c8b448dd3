package io.basaltdb.sql.rel.metadata;

import io.basaltdb.sql.catalog.SqlTableDef;
import io.basaltdb.sql.rel.BasaltScan;
import java.util.Set;
import org.apache.calcite.rel.metadata.BuiltInMetadata;
import org.apache.calcite.rel.metadata.MetadataDef;
import org.apache.calcite.rel.metadata.MetadataHandler;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.util.ImmutableBitSet;

/**
 * Which of a Basalt scan's output columns are unique: those holding every column of its
 * table's key. Calcite answers for a table scan from the table's keys by position, as if the
 * scan returned the table's columns in order; a Basalt scan returns the columns it reads, so
 * its first column (the table's key position 0) may be any column: a {@code GROUP BY a} over
 * a scan reading only {@code a} was dropped as grouping unique values. A scan computing an
 * aggregate is left to Calcite's defaults (unknown). Stateless.
 */
public final class ScanUniqueness {
  private ScanUniqueness() {}

  /** The table columns behind output {@code columns} of {@code scan}, or null: not plain rows. */
  private static ImmutableBitSet tableColumns(BasaltScan scan, ImmutableBitSet columns) {
    if (scan.spec().aggregate() != null) {
      return null;
    }
    ImmutableBitSet.Builder b = ImmutableBitSet.builder();
    for (int c : columns) {
      if (c >= scan.spec().columns().size()) {
        return null;
      }
      b.set(scan.spec().columns().get(c));
    }
    return b.build();
  }

  /** The table's key columns; empty for a table without a visible key (as its statistic). */
  private static ImmutableBitSet key(SqlTableDef def) {
    return def.hasHiddenKey() ? ImmutableBitSet.of() : ImmutableBitSet.of(def.keyColumnIndexes());
  }

  /** Column uniqueness of Basalt scans. */
  public static final class Columns implements MetadataHandler<BuiltInMetadata.ColumnUniqueness> {
    @Override
    public MetadataDef<BuiltInMetadata.ColumnUniqueness> getDef() {
      return BuiltInMetadata.ColumnUniqueness.DEF;
    }

    /** Called by Calcite's metadata dispatch. */
    public Boolean areColumnsUnique(BasaltScan scan, RelMetadataQuery mq,
        ImmutableBitSet columns, boolean ignoreNulls) {
      ImmutableBitSet read = tableColumns(scan, columns);
      if (read == null) {
        return null;
      }
      ImmutableBitSet key = key(scan.definition());
      return !key.isEmpty() && read.contains(key);
    }
  }

  /** Unique keys of Basalt scans: the table key's output positions, when it reads them all. */
  public static final class Keys implements MetadataHandler<BuiltInMetadata.UniqueKeys> {
    @Override
    public MetadataDef<BuiltInMetadata.UniqueKeys> getDef() {
      return BuiltInMetadata.UniqueKeys.DEF;
    }

    /** Called by Calcite's metadata dispatch. */
    public Set<ImmutableBitSet> getUniqueKeys(BasaltScan scan, RelMetadataQuery mq,
        boolean ignoreNulls) {
      if (scan.spec().aggregate() != null) {
        return null;
      }
      ImmutableBitSet key = key(scan.definition());
      ImmutableBitSet.Builder out = ImmutableBitSet.builder();
      for (int k : key) {
        int at = scan.spec().columns().indexOf(k);
        if (at < 0) {
          return Set.of();
        }
        out.set(at);
      }
      return key.isEmpty() ? Set.of() : Set.of(out.build());
    }
  }
}
