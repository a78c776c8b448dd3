package io.basaltdb.engine.catalog;

import io.basaltdb.storage.BloomType;
import io.basaltdb.storage.Compression;
import io.basaltdb.storage.CorruptionException;
import io.basaltdb.storage.FamilyOptions;
import io.basaltdb.storage.TableDescriptor;
import io.basaltdb.storage.TableName;
import io.basaltdb.engine.util.ByteReader;
import io.basaltdb.engine.util.ByteWriter;
import io.basaltdb.engine.util.Checksums;
import io.basaltdb.engine.util.AtomicFiles;
import io.basaltdb.engine.io.FileSystem;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * One version of the catalog ({@code engine/doc/catalog-format.md}) and its encoding.
 * Immutable; {@link #writeTo} installs it atomically.
 */
public record CatalogFile(int formatVersion, long nextRegionId, SortedSet<String> namespaces,
    List<TableEntry> tables) {
  /**
   * Version 2: every store directory has a MANIFEST from its creation (version 1 stores got one
   * at their first flush; a version-1 catalog is upgraded on open).
   */
  public static final int FORMAT_VERSION = 2;
  public static final long MAGIC = 0x42534C5443415431L; // "BSLTCAT1"
  public static final String NAME = "CATALOG";

  /** A region of a table: its id (and directory name) and row range. */
  public record RegionEntry(long id, byte[] startRow, byte[] endRow) {
    public String dirName() {
      return io.basaltdb.engine.util.ZeroPadded.of(id, 20);
    }
  }

  /** A table: descriptor, enabled flag, regions in row order. */
  public record TableEntry(TableDescriptor descriptor, boolean enabled, List<RegionEntry> regions) {
    public TableEntry {
      regions = List.copyOf(regions);
    }
  }

  public CatalogFile(long nextRegionId, SortedSet<String> namespaces, List<TableEntry> tables) {
    this(FORMAT_VERSION, nextRegionId, namespaces, tables);
  }

  public CatalogFile {
    namespaces = java.util.Collections.unmodifiableSortedSet(new TreeSet<>(namespaces));
    tables = List.copyOf(tables);
  }

  public static CatalogFile empty() {
    return new CatalogFile(1, new TreeSet<>(List.of(TableName.DEFAULT_NAMESPACE)), List.of());
  }

  public byte[] encode() {
    ByteWriter w = new ByteWriter(1024);
    w.putLong(MAGIC).putInt(FORMAT_VERSION).putLong(nextRegionId);
    w.putInt(namespaces.size());
    for (String ns : namespaces) {
      str(w, ns);
    }
    w.putInt(tables.size());
    for (TableEntry t : tables) {
      str(w, t.descriptor().name().namespace());
      str(w, t.descriptor().name().name());
      w.put((byte) (t.enabled() ? 1 : 0));
      w.putInt(t.descriptor().families().size());
      for (Map.Entry<String, FamilyOptions> f : t.descriptor().families().entrySet()) {
        FamilyOptions o = f.getValue();
        str(w, f.getKey());
        w.putInt(o.maxVersions()).putInt(o.minVersions()).putLong(o.ttlSeconds());
        w.put(o.compression().code()).putInt(o.blockSize()).put(o.bloomType().code());
        w.put((byte) (o.prefixEncoding() ? 1 : 0)).put((byte) (o.inMemory() ? 1 : 0));
      }
      w.putInt(t.regions().size());
      for (RegionEntry r : t.regions()) {
        w.putLong(r.id());
        w.putInt(r.startRow().length).put(r.startRow());
        w.putInt(r.endRow().length).put(r.endRow());
      }
    }
    w.putInt(Checksums.crc32c(w.array(), 0, w.size()));
    return w.toByteArray();
  }

  private static void str(ByteWriter w, String s) {
    byte[] b = s.getBytes(StandardCharsets.UTF_8);
    w.put((byte) (b.length >>> 8)).put((byte) b.length).put(b);
  }

  private static String str(ByteReader r) {
    int len = ((r.get() & 0xff) << 8) | (r.get() & 0xff);
    return new String(r.getBytes(len), StandardCharsets.UTF_8);
  }

  public static CatalogFile decode(byte[] b, String where) {
    if (b.length < 20) {
      throw new CorruptionException(where, 0, "catalog of " + b.length + " bytes is too short");
    }
    if (ByteReader.getInt(b, b.length - 4) != Checksums.crc32c(b, 0, b.length - 4)) {
      throw new CorruptionException(where, b.length - 4, "catalog checksum mismatch");
    }
    ByteReader r = new ByteReader(b, 0, b.length - 4);
    try {
      if (r.getLong() != MAGIC) {
        throw new CorruptionException(where, 0, "bad catalog magic");
      }
      int v = r.getInt();
      if (v != 1 && v != FORMAT_VERSION) {
        throw new CorruptionException(where, 8, "unsupported catalog version " + v);
      }
      long next = r.getLong();
      SortedSet<String> ns = new TreeSet<>();
      for (int i = r.getInt(); i > 0; i--) {
        ns.add(str(r));
      }
      List<TableEntry> tables = new ArrayList<>();
      for (int i = r.getInt(); i > 0; i--) {
        TableName name = new TableName(str(r), str(r));
        boolean enabled = r.get() == 1;
        Map<String, FamilyOptions> fams = new LinkedHashMap<>();
        for (int j = r.getInt(); j > 0; j--) {
          String fam = str(r);
          int versions = r.getInt();
          int minVersions = r.getInt();
          long ttl = r.getLong();
          Compression c = r.get() == Compression.LZ4.code() ? Compression.LZ4 : Compression.NONE;
          int blockSize = r.getInt();
          BloomType bloom = BloomType.ofCode(r.get());
          boolean prefix = r.get() == 1;
          boolean inMemory = r.get() == 1;
          fams.put(fam, new FamilyOptions(versions, minVersions, ttl, c, blockSize, bloom, prefix,
              inMemory));
        }
        List<RegionEntry> regions = new ArrayList<>();
        for (int j = r.getInt(); j > 0; j--) {
          long id = r.getLong();
          byte[] start = r.getBytes(r.getInt());
          byte[] end = r.getBytes(r.getInt());
          regions.add(new RegionEntry(id, start, end));
        }
        tables.add(new TableEntry(new TableDescriptor(name, fams), enabled, regions));
      }
      if (r.hasRemaining()) {
        throw new CorruptionException(where, r.position(), "trailing bytes in catalog");
      }
      return new CatalogFile(v, next, ns, tables);
    } catch (ByteReader.MalformedException | io.basaltdb.storage.InvalidArgumentException e) {
      throw new CorruptionException(where, r.position(), "malformed catalog: " + e.getMessage());
    }
  }

  /** The catalog of a database directory, or null when it has none. */
  public static CatalogFile readIfPresent(FileSystem fs, Path dir) {
    byte[] b = AtomicFiles.read(fs, dir, NAME);
    return b == null ? null : decode(b, dir.resolve(NAME).toString());
  }

  /** Installs this catalog atomically (always written in the current format; crash point "catalog"). */
  public void writeTo(FileSystem fs, Path dir) {
    AtomicFiles.write(fs, dir, NAME, encode(), "catalog");
  }


  public TableEntry table(TableName name) {
    for (TableEntry t : tables) {
      if (t.descriptor().name().equals(name)) {
        return t;
      }
    }
    return null;
  }

  /** A copy with {@code t} replacing the table of the same name (or added). */
  public CatalogFile withTable(TableEntry t, long nextId) {
    List<TableEntry> ts = new ArrayList<>();
    boolean replaced = false;
    for (TableEntry x : tables) {
      if (x.descriptor().name().equals(t.descriptor().name())) {
        ts.add(t);
        replaced = true;
      } else {
        ts.add(x);
      }
    }
    if (!replaced) {
      ts.add(t);
    }
    return new CatalogFile(nextId, namespaces, ts);
  }

  public CatalogFile withoutTable(TableName name) {
    List<TableEntry> ts = new ArrayList<>(tables);
    ts.removeIf(x -> x.descriptor().name().equals(name));
    return new CatalogFile(nextRegionId, namespaces, ts);
  }

  public CatalogFile withNamespaces(SortedSet<String> ns) {
    return new CatalogFile(nextRegionId, ns, tables);
  }
}
