package io.basaltdb.hbase;

import io.basaltdb.storage.Append;
import io.basaltdb.storage.BloomType;
import io.basaltdb.storage.Cell;
import io.basaltdb.storage.CheckAndMutate;
import io.basaltdb.storage.Compression;
import io.basaltdb.storage.Delete;
import io.basaltdb.storage.Durability;
import io.basaltdb.storage.FamilyOptions;
import io.basaltdb.storage.Increment;
import io.basaltdb.storage.InvalidArgumentException;
import io.basaltdb.storage.Mutation;
import io.basaltdb.storage.Put;
import io.basaltdb.storage.ReadRequest;
import io.basaltdb.storage.Result;
import io.basaltdb.storage.Row;
import io.basaltdb.storage.RowMutations;
import io.basaltdb.storage.TableDescriptor;
import io.basaltdb.storage.TableName;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import io.basaltdb.storage.filter.FilterSpec;
import org.apache.hadoop.hbase.filter.BinaryComparator;
import org.apache.hadoop.hbase.filter.FilterList;
import org.apache.hadoop.hbase.filter.LongComparator;
import org.apache.hadoop.hbase.filter.SingleColumnValueFilter;
import org.apache.hadoop.hbase.io.compress.Compression.Algorithm;

/**
 * The HBase backend's edge: Basalt's client forms (names, descriptors, mutations, reads,
 * results) to HBase's and back. Pure functions; nothing here talks to the cluster.
 *
 * <p>Names: a Basalt namespace is an HBase namespace of the same name, except Basalt's
 * {@code system} namespace (SQL catalog, sequences), which is HBase's {@code BASALT}; HBase's own
 * {@code hbase} namespace is not shown. Timestamps, 8-byte counters and cell order are the same
 * on both sides.
 */
final class HBaseForms {
  /** Basalt's system namespace and where it lives in HBase. */
  static final String SYSTEM = "system";
  static final String HBASE_SYSTEM = "BASALT";

  private HBaseForms() {}

  static org.apache.hadoop.hbase.TableName name(TableName n) {
    return org.apache.hadoop.hbase.TableName.valueOf(namespace(n.namespace()), n.name());
  }

  static String namespace(String basalt) {
    if (basalt.equals(HBASE_SYSTEM) || basalt.equals("hbase")) {
      throw new InvalidArgumentException("namespace " + basalt + " is reserved over HBase");
    }
    return basalt.equals(SYSTEM) ? HBASE_SYSTEM : basalt;
  }

  /** The Basalt name of an HBase table, or null for one Basalt does not show. */
  static TableName name(org.apache.hadoop.hbase.TableName n) {
    String ns = n.getNamespaceAsString();
    if (ns.equals("hbase")) {
      return null;
    }
    try {
      return new TableName(ns.equals(HBASE_SYSTEM) ? SYSTEM : ns, n.getQualifierAsString());
    } catch (InvalidArgumentException e) {
      return null; // a name Basalt cannot spell
    }
  }

  static String utf8(byte[] b) {
    return new String(b, StandardCharsets.UTF_8);
  }

  static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  // ------------------------------------------------------------ descriptors

  /** A new table's HBase descriptor: every family with {@code NEW_VERSION_BEHAVIOR}. */
  static org.apache.hadoop.hbase.client.TableDescriptor descriptor(TableDescriptor d) {
    return descriptor(d, true);
  }

  /** {@code d} as HBase's, every family with or without NEW_VERSION_BEHAVIOR. */
  static org.apache.hadoop.hbase.client.TableDescriptor descriptor(TableDescriptor d,
      boolean newVersionBehavior) {
    TableDescriptorBuilder b = TableDescriptorBuilder.newBuilder(name(d.name()));
    d.families().forEach((f, o) -> b.setColumnFamily(family(f, o, newVersionBehavior)));
    return b.build();
  }

  /**
   * A family's HBase descriptor. {@code newVersionBehavior}: HBase's {@code
   * NEW_VERSION_BEHAVIOR}, with which a delete marker hides only the puts written before it, as
   * the embedded engine's do (HBase's default rule hides every put at or below the marker's
   * timestamp, even one written later: a row deleted and written again at an older timestamp,
   * as a ROW_TIMESTAMP table writes it, would stay hidden). Basalt makes new tables with it
   * (`bench cluster` measured no cost); a table made before keeps what it has.
   */
  static ColumnFamilyDescriptor family(String name, FamilyOptions o,
      boolean newVersionBehavior) {
    return ColumnFamilyDescriptorBuilder.newBuilder(utf8(name))
        .setMaxVersions(o.maxVersions())
        .setMinVersions(o.minVersions())
        .setTimeToLive(o.ttlSeconds() == 0 || o.ttlSeconds() >= HConstants.FOREVER
            ? HConstants.FOREVER : (int) o.ttlSeconds())
        .setCompressionType(o.compression() == Compression.LZ4 ? Algorithm.LZ4 : Algorithm.NONE)
        .setBlocksize(o.blockSize())
        .setBloomFilterType(switch (o.bloomType()) {
          case NONE -> org.apache.hadoop.hbase.regionserver.BloomType.NONE;
          case ROW -> org.apache.hadoop.hbase.regionserver.BloomType.ROW;
          case ROWCOL -> org.apache.hadoop.hbase.regionserver.BloomType.ROWCOL;
        })
        .setInMemory(o.inMemory())
        .setNewVersionBehavior(newVersionBehavior)
        .build();
  }

  /** Whether every family of {@code d} has {@code NEW_VERSION_BEHAVIOR}. */
  static boolean newVersionBehavior(org.apache.hadoop.hbase.client.TableDescriptor d) {
    for (ColumnFamilyDescriptor f : d.getColumnFamilies()) {
      if (!f.isNewVersionBehavior()) {
        return false;
      }
    }
    return true;
  }

  static TableDescriptor descriptor(TableName name, org.apache.hadoop.hbase.client.TableDescriptor d) {
    Map<String, FamilyOptions> families = new LinkedHashMap<>();
    for (ColumnFamilyDescriptor f : d.getColumnFamilies()) {
      families.put(f.getNameAsString(), options(f));
    }
    return new TableDescriptor(name, families);
  }

  static FamilyOptions options(ColumnFamilyDescriptor f) {
    int ttl = f.getTimeToLive();
    return new FamilyOptions(f.getMaxVersions(), f.getMinVersions(),
        ttl == HConstants.FOREVER ? 0 : ttl,
        f.getCompressionType() == Algorithm.LZ4 ? Compression.LZ4 : Compression.NONE,
        Math.max(1024, Math.min(16 << 20, f.getBlocksize())),
        switch (f.getBloomFilterType()) {
          case ROW -> BloomType.ROW;
          case ROWCOL -> BloomType.ROWCOL;
          default -> BloomType.NONE;
        }, true, f.isInMemory());
  }

  // ------------------------------------------------------------ writes

  /**
   * A write's durability in HBase. ASYNC is SYNC_WAL too: the seam's ASYNC write is made
   * durable by a later {@code Storage.sync()} (the SQL layer writes a statement's rows ASYNC and
   * syncs once before acknowledging it), and HBase has no call that syncs earlier ASYNC_WAL edits
   * (its region server acknowledges those before their WAL sync, and may lose them in a crash:
   * HBASE-16689). So a write HBase acknowledged is durable, as {@link HBaseStorage#sync} says.
   */
  static org.apache.hadoop.hbase.client.Durability durability(Durability d) {
    return switch (d) {
      case SYNC, ASYNC -> org.apache.hadoop.hbase.client.Durability.SYNC_WAL;
      case SKIP -> org.apache.hadoop.hbase.client.Durability.SKIP_WAL;
    };
  }

  static org.apache.hadoop.hbase.client.Put put(Put p) {
    org.apache.hadoop.hbase.client.Put out = new org.apache.hadoop.hbase.client.Put(p.row());
    for (Cell c : p.cells()) {
      out.addColumn(c.family(), c.qualifier(), c.timestamp(), c.value());
    }
    return out.setDurability(durability(p.durability()));
  }

  static org.apache.hadoop.hbase.client.Delete delete(Delete d) {
    org.apache.hadoop.hbase.client.Delete out =
        new org.apache.hadoop.hbase.client.Delete(d.row(), d.timestamp());
    for (Cell c : d.cells()) {
      switch (c.type()) {
        case DELETE -> out.addColumn(c.family(), c.qualifier(), c.timestamp());
        case DELETE_COLUMN -> out.addColumns(c.family(), c.qualifier(), c.timestamp());
        case DELETE_FAMILY -> out.addFamily(c.family(), c.timestamp());
        case DELETE_FAMILY_VERSION -> out.addFamilyVersion(c.family(), c.timestamp());
        default -> throw new InvalidArgumentException("not a delete marker: " + c);
      }
    }
    return out.setDurability(durability(d.durability()));
  }

  /**
   * An engine {@code DELETE} at the latest timestamp means the newest version; HBase's
   * {@code addColumn(f, q, LATEST)} means the same (the server resolves it).
   */
  static org.apache.hadoop.hbase.client.Mutation mutation(Mutation m) {
    if (m instanceof Put p) {
      return put(p);
    }
    if (m instanceof Delete d) {
      return delete(d);
    }
    throw new InvalidArgumentException("a row mutation holds puts and deletes, not "
        + m.getClass().getSimpleName());
  }

  static org.apache.hadoop.hbase.client.RowMutations rowMutations(RowMutations rm)
      throws IOException {
    org.apache.hadoop.hbase.client.RowMutations out =
        new org.apache.hadoop.hbase.client.RowMutations(rm.row(), rm.mutations().size());
    for (Mutation m : rm.mutations()) {
      out.add(mutation(m));
    }
    return out;
  }

  static org.apache.hadoop.hbase.client.Increment increment(Increment inc) {
    org.apache.hadoop.hbase.client.Increment out =
        new org.apache.hadoop.hbase.client.Increment(inc.row());
    inc.amounts().forEach((c, n) -> out.addColumn(c.family(), c.qualifier(), n));
    return (org.apache.hadoop.hbase.client.Increment)
        out.setDurability(durability(inc.durability()));
  }

  static org.apache.hadoop.hbase.client.Append append(Append app) {
    org.apache.hadoop.hbase.client.Append out = new org.apache.hadoop.hbase.client.Append(app.row());
    app.suffixes().forEach((c, v) -> out.addColumn(c.family(), c.qualifier(), v));
    return (org.apache.hadoop.hbase.client.Append) out.setDurability(durability(app.durability()));
  }

  /**
   * Basalt's conditions read "stored op given"; HBase's {@code ifMatches} reads "given op
   * stored", so the order operators flip. "Exists with any value" and comparisons with an empty
   * value have no exact HBase value condition: a single-column filter on the row states them.
   * "Not exists" is HBase's, which also holds for an empty stored value: Basalt's SQL markers are
   * never empty (its other cells' emptiness is not asked this way).
   */
  static org.apache.hadoop.hbase.client.CheckAndMutate checkAndMutate(CheckAndMutate cam)
      throws IOException {
    var b = org.apache.hadoop.hbase.client.CheckAndMutate.newBuilder(cam.row());
    if (cam.op() == null) {
      b.ifMatches(present(cam.family(), cam.qualifier(),
          org.apache.hadoop.hbase.CompareOperator.GREATER_OR_EQUAL, new byte[0]));
    } else if (cam.value() == null) {
      b.ifNotExists(cam.family(), cam.qualifier()); // an empty value counts as none in HBase
    } else if (cam.value().length == 0) {
      b.ifMatches(present(cam.family(), cam.qualifier(), natural(cam.op()), cam.value()));
    } else {
      b.ifMatches(cam.family(), cam.qualifier(), flipped(cam.op()), cam.value());
    }
    Row action = cam.action();
    if (action instanceof Put p) {
      return b.build(put(p));
    } else if (action instanceof Delete d) {
      return b.build(delete(d));
    } else if (action instanceof Increment i) {
      return b.build(increment(i));
    } else if (action instanceof Append a) {
      return b.build(append(a));
    } else if (action instanceof RowMutations rm) {
      return b.build(rowMutations(rm));
    }
    throw new InvalidArgumentException("check-and-mutate cannot apply a "
        + action.getClass().getSimpleName());
  }

  /**
   * A condition HBase's value comparison cannot state (it takes an empty value for a missing
   * cell): the cell is present and "stored op value", as a filter on the row.
   */
  private static SingleColumnValueFilter present(byte[] family, byte[] qualifier,
      org.apache.hadoop.hbase.CompareOperator op, byte[] value) {
    SingleColumnValueFilter f = new SingleColumnValueFilter(family, qualifier, op,
        new BinaryComparator(value));
    f.setFilterIfMissing(true);
    f.setLatestVersionOnly(true);
    return f;
  }

  static org.apache.hadoop.hbase.CompareOperator natural(io.basaltdb.storage.CompareOperator op) {
    return org.apache.hadoop.hbase.CompareOperator.valueOf(op.name());
  }

  static org.apache.hadoop.hbase.CompareOperator flipped(io.basaltdb.storage.CompareOperator op) {
    return switch (op) {
      case LESS -> org.apache.hadoop.hbase.CompareOperator.GREATER;
      case LESS_OR_EQUAL -> org.apache.hadoop.hbase.CompareOperator.GREATER_OR_EQUAL;
      case EQUAL -> org.apache.hadoop.hbase.CompareOperator.EQUAL;
      case NOT_EQUAL -> org.apache.hadoop.hbase.CompareOperator.NOT_EQUAL;
      case GREATER_OR_EQUAL -> org.apache.hadoop.hbase.CompareOperator.LESS_OR_EQUAL;
      case GREATER -> org.apache.hadoop.hbase.CompareOperator.LESS;
    };
  }

  // ------------------------------------------------------------ reads

  /** Columns, versions and time range of {@code r} on an HBase get or scan. */
  static <Q extends org.apache.hadoop.hbase.client.Query> void readShape(ReadRequest<?> r,
      Q q, java.util.function.BiConsumer<byte[], byte[]> addColumn,
      java.util.function.Consumer<byte[]> addFamily) throws IOException {
    for (Map.Entry<byte[], NavigableSet<byte[]>> e : r.columns().entrySet()) {
      if (e.getValue() == null) {
        addFamily.accept(e.getKey());
      } else {
        for (byte[] q2 : e.getValue()) {
          addColumn.accept(e.getKey(), q2);
        }
      }
    }
    if (r.minTimestamp() != 0 || r.maxTimestamp() != Long.MAX_VALUE) {
      if (q instanceof org.apache.hadoop.hbase.client.Get g) {
        g.setTimeRange(r.minTimestamp(), r.maxTimestamp());
      } else if (q instanceof org.apache.hadoop.hbase.client.Scan s) {
        s.setTimeRange(r.minTimestamp(), r.maxTimestamp());
      }
    }
  }

  static org.apache.hadoop.hbase.client.Get get(io.basaltdb.storage.Get g) throws IOException {
    org.apache.hadoop.hbase.client.Get out = new org.apache.hadoop.hbase.client.Get(g.row());
    readShape(g, out, out::addColumn, out::addFamily);
    out.readVersions(g.maxVersions());
    return out;
  }

  static org.apache.hadoop.hbase.client.Scan scan(io.basaltdb.storage.Scan s) throws IOException {
    org.apache.hadoop.hbase.client.Scan out = new org.apache.hadoop.hbase.client.Scan();
    if (s.isReversed()) {
      // Basalt's reversed scan runs from its start row (the upper) down to its stop row, as HBase's
      out.setReversed(true);
    }
    out.withStartRow(s.startRow(), s.includesStartRow());
    out.withStopRow(s.stopRow(), s.includesStopRow());
    readShape(s, out, out::addColumn, out::addFamily);
    out.readVersions(s.maxVersions());
    if (s.caching() > 0) { // else HBase's default: each call filled up to its size limit
      out.setCaching(s.caching());
    }
    if (s.batch() != Integer.MAX_VALUE) {
      out.setBatch(s.batch());
    }
    return out;
  }

  /**
   * A Basalt filter's stated condition ({@link FilterSpec}) as HBase's filters, run on the
   * region servers: a cell comparison as a single-column-value filter on the newest version
   * that drops a row without the cell ({@code LongComparator} for signed longs, else byte
   * comparison), AND/OR as filter lists. What HBase cannot state exactly is left out (under
   * AND) or makes the whole OR null; the Basalt filter still runs on what comes back.
   */
  static org.apache.hadoop.hbase.filter.Filter filter(FilterSpec spec) {
    if (spec instanceof FilterSpec.ColumnValue c) {
      boolean signed = c.order() == FilterSpec.Order.SIGNED_LONG;
      if (signed && c.value().length != Long.BYTES) {
        return null;
      }
      org.apache.hadoop.hbase.filter.ByteArrayComparable cmp = signed
          ? new LongComparator(java.nio.ByteBuffer.wrap(c.value()).getLong())
          : new BinaryComparator(c.value());
      SingleColumnValueFilter f = new SingleColumnValueFilter(c.family(), c.qualifier(),
          natural(c.op()), cmp);
      f.setFilterIfMissing(true);
      f.setLatestVersionOnly(true);
      return f;
    }
    boolean all = spec instanceof FilterSpec.AllOf;
    List<FilterSpec> parts = all ? ((FilterSpec.AllOf) spec).specs()
        : ((FilterSpec.AnyOf) spec).specs();
    List<org.apache.hadoop.hbase.filter.Filter> out = new ArrayList<>(parts.size());
    for (FilterSpec p : parts) {
      org.apache.hadoop.hbase.filter.Filter f = filter(p);
      if (f != null) {
        out.add(f);
      } else if (!all) {
        return null; // an OR with a branch HBase cannot test would drop that branch's rows
      }
    }
    if (out.isEmpty()) {
      return null;
    }
    return out.size() == 1 ? out.get(0) : new FilterList(all ? FilterList.Operator.MUST_PASS_ALL
        : FilterList.Operator.MUST_PASS_ONE, out);
  }

  /** An HBase result as Basalt's (same cell order: family, qualifier, newest first). */
  static Result result(org.apache.hadoop.hbase.client.Result r) {
    if (r == null || r.isEmpty()) {
      return Result.EMPTY;
    }
    org.apache.hadoop.hbase.Cell[] raw = r.rawCells();
    List<Cell> cells = new ArrayList<>(raw.length);
    byte[] row = r.getRow();
    for (org.apache.hadoop.hbase.Cell c : raw) {
      org.apache.hadoop.hbase.Cell.Type type = c.getType();
      if (type == org.apache.hadoop.hbase.Cell.Type.Put) {
        cells.add(Cell.put(row, CellUtil.cloneFamily(c), CellUtil.cloneQualifier(c),
            c.getTimestamp(), CellUtil.cloneValue(c)));
      } else { // a raw scan's delete marker: HBase's type codes are Basalt's
        cells.add(Cell.delete(row, CellUtil.cloneFamily(c), CellUtil.cloneQualifier(c),
            c.getTimestamp(), io.basaltdb.storage.CellType.ofCode(type.getCode())));
      }
    }
    return new Result(row, cells);
  }
}
