package io.basaltdb.engine.manifest;

import io.basaltdb.storage.CorruptionException;
import io.basaltdb.engine.util.ByteReader;
import io.basaltdb.engine.util.ByteWriter;
import io.basaltdb.engine.util.Checksums;
import io.basaltdb.engine.util.AtomicFiles;
import io.basaltdb.engine.io.FileSystem;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One version of a store's manifest ({@code engine/doc/manifest-format.md}): the live files,
 * the flushed sequence id and the next file number. Immutable; {@link #writeTo} installs it
 * atomically (temp file, fsync, rename, directory fsync).
 */
public record Manifest(long flushedSeq, long nextFileNumber, List<FileEntry> files) {
  public static final int FORMAT_VERSION = 1;
  public static final long MAGIC = 0x42534C544D414E31L; // "BSLTMAN1"
  public static final String NAME = "MANIFEST";
  public static final Manifest EMPTY = new Manifest(0, 1, List.of());

  /** A live file and its size in bytes. */
  public record FileEntry(String name, long size) {}

  public Manifest {
    files = List.copyOf(files);
  }

  public byte[] encode() {
    ByteWriter w = new ByteWriter(64 + files.size() * 32);
    w.putLong(MAGIC).putInt(FORMAT_VERSION).putLong(flushedSeq).putLong(nextFileNumber);
    w.putInt(files.size());
    for (FileEntry f : files) {
      byte[] n = f.name.getBytes(StandardCharsets.UTF_8);
      w.put((byte) (n.length >>> 8)).put((byte) n.length).put(n).putLong(f.size);
    }
    w.putInt(Checksums.crc32c(w.array(), 0, w.size()));
    return w.toByteArray();
  }

  public static Manifest decode(byte[] b, String where) {
    if (b.length < 36) {
      throw new CorruptionException(where, 0, "manifest of " + b.length + " bytes is too short");
    }
    int crc = ByteReader.getInt(b, b.length - 4);
    if (crc != Checksums.crc32c(b, 0, b.length - 4)) {
      throw new CorruptionException(where, b.length - 4, "manifest checksum mismatch");
    }
    ByteReader r = new ByteReader(b, 0, b.length - 4);
    try {
      if (r.getLong() != MAGIC) {
        throw new CorruptionException(where, 0, "bad manifest magic");
      }
      int v = r.getInt();
      if (v != FORMAT_VERSION) {
        throw new CorruptionException(where, 8, "unsupported manifest version " + v);
      }
      long flushed = r.getLong();
      long next = r.getLong();
      int n = r.getInt();
      List<FileEntry> files = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        int len = ((r.get() & 0xff) << 8) | (r.get() & 0xff);
        String name = new String(r.getBytes(len), StandardCharsets.UTF_8);
        files.add(new FileEntry(name, r.getLong()));
      }
      if (r.hasRemaining()) {
        throw new CorruptionException(where, r.position(), "trailing bytes in manifest");
      }
      return new Manifest(flushed, next, files);
    } catch (ByteReader.MalformedException e) {
      throw new CorruptionException(where, r.position(), "malformed manifest: " + e.getMessage());
    }
  }

  /**
   * Reads the manifest of {@code dir}. Every store has one from the moment it is created, so
   * a missing manifest is corruption, never an empty store.
   */
  public static Manifest read(FileSystem fs, Path dir) {
    Manifest m = readIfPresent(fs, dir);
    if (m == null) {
      throw new CorruptionException(dir.resolve(NAME).toString(), 0,
          "the store's manifest is missing");
    }
    return m;
  }

  /** The manifest of {@code dir}, or null when there is none. */
  public static Manifest readIfPresent(FileSystem fs, Path dir) {
    byte[] b = AtomicFiles.read(fs, dir, NAME);
    return b == null ? null : decode(b, dir.resolve(NAME).toString());
  }

  /** Atomically replaces the manifest of {@code dir} with this one (crash point "manifest"). */
  public void writeTo(FileSystem fs, Path dir) {
    AtomicFiles.write(fs, dir, NAME, encode(), "manifest");
  }


  public static String fileName(long number) {
    return io.basaltdb.engine.util.ZeroPadded.of(number, 12) + ".blk";
  }
}
