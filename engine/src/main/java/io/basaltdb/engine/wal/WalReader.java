package io.basaltdb.engine.wal;

import io.basaltdb.storage.CorruptionException;
import io.basaltdb.storage.StorageIOException;
import io.basaltdb.engine.io.FileSystem;
import io.basaltdb.engine.util.AtomicFiles;
import io.basaltdb.engine.util.ByteReader;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Consumer;

/**
 * Replays the log's segments in order ({@code engine/doc/wal-format.md}, "Replay and damage"):
 * hands every whole edit to a consumer, truncates a torn tail of the newest segment, and raises
 * {@link CorruptionException} naming segment and offset for any other damage, including a
 * segment missing between two others. {@link #salvage} is the explicit way past damage: it
 * keeps every intact record and sets the damaged bytes aside. Stateless.
 */
public final class WalReader {
  /** What a replay saw. */
  public record ReplayStats(int segments, long edits, long maxSequenceId, long truncatedBytes) {}

  /** What {@link #salvage} dropped from one segment (kept in {@code <segment>.damaged}). */
  public record Salvaged(Path segment, long firstDamageOffset, long droppedBytes, String what) {}

  private WalReader() {}

  /** The segment files in {@code dir}, in number order. */
  public static List<Path> segments(FileSystem fs, Path dir) throws IOException {
    List<Path> out = new ArrayList<>();
    if (!fs.isDirectory(dir)) {
      return out;
    }
    for (Path p : fs.list(dir)) {
      if (WalFormat.segmentNumber(p) >= 0) {
        out.add(p);
      }
    }
    out.sort(Comparator.comparingLong(WalFormat::segmentNumber));
    return out;
  }

  public static ReplayStats replay(FileSystem fs, Path dir, Consumer<WalEdit> consumer) {
    try {
      List<Path> segs = segments(fs, dir);
      checkContiguous(segs);
      long edits = 0;
      long maxSeq = 0;
      long truncated = 0;
      for (int i = 0; i < segs.size(); i++) {
        boolean newest = i == segs.size() - 1;
        Segment s = Segment.read(fs, segs.get(i));
        if (s.headerDamage != null) {
          if (!(newest && s.damageAt(0).tornTail)) {
            throw new CorruptionException(s.name, 0, s.headerDamage);
          }
          truncate(fs, s.path, 0, true);
          truncated += s.length();
          continue;
        }
        for (int pos = s.firstRecord(); pos < s.length(); ) {
          Damage d = s.damageAt(pos);
          if (d != null) {
            if (!(d.tornTail && newest)) {
              throw new CorruptionException(s.name, pos, d.what
                  + (d.tornTail ? " in a segment that is not the newest" : "")
                  + " (WalReader.salvage keeps the intact records and sets this aside)");
            }
            truncate(fs, s.path, pos, false);
            truncated += s.length() - pos;
            break;
          }
          for (WalEdit edit : s.decode(pos)) {
            consumer.accept(edit);
            edits++;
            maxSeq = Math.max(maxSeq, edit.sequenceId());
          }
          pos = s.end(pos);
        }
      }
      return new ReplayStats(segs.size(), edits, maxSeq, truncated);
    } catch (IOException e) {
      throw StorageIOException.wrap("cannot read write-ahead log in " + dir, e);
    }
  }

  private static void checkContiguous(List<Path> segs) {
    for (int i = 1; i < segs.size(); i++) {
      long prev = WalFormat.segmentNumber(segs.get(i - 1));
      long n = WalFormat.segmentNumber(segs.get(i));
      if (n != prev + 1) {
        throw new CorruptionException(segs.get(i).toString(), 0, "write-ahead log segment "
            + WalFormat.segmentName(prev + 1) + " is missing between " + segs.get(i - 1)
            .getFileName() + " and " + segs.get(i).getFileName());
      }
    }
  }

  /**
   * Rewrites every damaged segment with its intact records only (a record is intact when its
   * header and payload checksums hold and it decodes), moving the original aside as
   * {@code <segment>.damaged}. The explicit, lossy repair for a log that {@link #replay}
   * refuses; returns what it dropped.
   */
  public static List<Salvaged> salvage(FileSystem fs, Path dir) {
    List<Salvaged> out = new ArrayList<>();
    try {
      for (Path p : segments(fs, dir)) {
        Segment s = Segment.read(fs, p);
        if (s.headerDamage != null) {
          fs.rename(p, p.resolveSibling(p.getFileName() + ".damaged"));
          out.add(new Salvaged(p, 0, s.length(), s.headerDamage));
          continue;
        }
        ByteWriterSink kept = new ByteWriterSink(s.bytes, s.firstRecord());
        long firstDamage = -1;
        String what = null;
        int pos = s.firstRecord();
        while (pos < s.length()) {
          Damage d = s.damageAt(pos);
          if (d == null) {
            try {
              s.decode(pos);
              kept.copy(pos, s.end(pos));
              pos = s.end(pos);
              continue;
            } catch (CorruptionException e) {
              d = new Damage(e.getMessage(), false);
            }
          }
          if (firstDamage < 0) {
            firstDamage = pos;
            what = d.what;
          }
          pos = s.nextIntactAfter(pos);
        }
        if (firstDamage >= 0) {
          Path fixed = p.resolveSibling(p.getFileName() + ".salvage");
          fs.deleteIfExists(fixed);
          try (FileChannel ch = fs.createNew(fixed)) {
            AtomicFiles.writeFully(ch, kept.bytes(), kept.size());
            ch.force(true);
          }
          fs.rename(p, p.resolveSibling(p.getFileName() + ".damaged"));
          fs.rename(fixed, p);
          fs.syncDirectory(dir);
          out.add(new Salvaged(p, firstDamage, s.length() - kept.size(), what));
        }
      }
      fs.syncDirectory(dir);
    } catch (IOException e) {
      throw StorageIOException.wrap("cannot salvage write-ahead log in " + dir, e);
    }
    return out;
  }

  private static void truncate(FileSystem fs, Path seg, long size, boolean delete)
      throws IOException {
    if (delete) {
      // a crash while the segment was being created: nothing in it was ever acknowledged
      fs.deleteIfExists(seg);
      fs.syncDirectory(seg.getParent());
      return;
    }
    try (FileChannel ch = fs.openForWrite(seg)) {
      ch.truncate(size);
      ch.force(true);
    }
  }

  /** A description of damage at an offset; {@code tornTail}: what a cut append leaves. */
  private record Damage(String what, boolean tornTail) {}

  /** A segment's bytes and the record layout of its version. */
  private static final class Segment {
    final Path path;
    final String name;
    final byte[] bytes;
    final int version;
    final String headerDamage;

    private Segment(Path path, byte[] bytes) {
      this.path = path;
      this.name = path.toString();
      this.bytes = bytes;
      int v = 0;
      String damage = null;
      if (bytes.length < WalFormat.HEADER_SIZE) {
        damage = "segment shorter than its header";
      } else if (ByteReader.getLong(bytes, 0) != WalFormat.MAGIC) {
        damage = "bad segment magic";
      } else {
        v = ByteReader.getInt(bytes, 8);
        if (v == 2 && io.basaltdb.engine.util.Checksums.crc32c(bytes, 0, 12)
            != ByteReader.getInt(bytes, 12)) {
          damage = "segment header checksum mismatch";
        } else if (v == 1 && ByteReader.getInt(bytes, 12) != 0) {
          damage = "segment header reserved field is not zero";
        } else if (v != 1 && v != 2) {
          damage = "unsupported WAL version " + v;
        }
      }
      this.version = v;
      this.headerDamage = damage;
    }

    static Segment read(FileSystem fs, Path p) throws IOException {
      try {
        return new Segment(p, AtomicFiles.readAll(fs, p));
      } catch (NoSuchFileException e) {
        throw new CorruptionException(p.toString(), 0, "segment vanished while being read");
      }
    }

    int length() {
      return bytes.length;
    }

    /** 0 when the header itself is damaged (so that {@link #damageAt} reports it). */
    int firstRecord() {
      return headerDamage == null ? WalFormat.HEADER_SIZE : 0;
    }

    int headerSize() {
      return version == 1 ? WalFormat.V1_RECORD_HEADER_SIZE : WalFormat.RECORD_HEADER_SIZE;
    }

    int end(int pos) {
      return pos + headerSize() + ByteReader.getInt(bytes, pos);
    }

    /** Null when an intact record starts at {@code pos}; else what is wrong there. */
    Damage damageAt(int pos) {
      if (headerDamage != null) {
        // only a file cut before its header was complete is a torn creation
        return new Damage(headerDamage, bytes.length < WalFormat.HEADER_SIZE
            && isZeroOrPrefixOfHeader());
      }
      int remaining = bytes.length - pos;
      if (allZero(pos)) {
        return new Damage("zero-filled tail", true);
      }
      if (remaining < headerSize()) {
        return new Damage("partial record header", true);
      }
      int len = ByteReader.getInt(bytes, pos);
      if (version == 1) {
        return v1DamageAt(pos, len, remaining);
      }
      if (!WalFormat.recordHeaderIntact(bytes, pos)) {
        return new Damage("record header checksum mismatch", false);
      }
      if (len < 0 || len > remaining - WalFormat.RECORD_HEADER_SIZE) {
        return new Damage("record running past the end", true);
      }
      if (io.basaltdb.engine.util.Checksums.crc32c(bytes, pos + WalFormat.RECORD_HEADER_SIZE,
          len) != ByteReader.getInt(bytes, pos + 4)) {
        return new Damage("record payload checksum mismatch", false);
      }
      return null;
    }

    /** Version 1 has no header checksum: a bad length can be told from a cut only at the end. */
    private Damage v1DamageAt(int pos, int len, int remaining) {
      if (len < 0 || len > remaining - WalFormat.V1_RECORD_HEADER_SIZE) {
        return new Damage("record running past the end", nextIntactAfter(pos) >= bytes.length);
      }
      java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
      crc.update(bytes, pos, 4);
      crc.update(bytes, pos + WalFormat.V1_RECORD_HEADER_SIZE, len);
      if ((int) crc.getValue() != ByteReader.getInt(bytes, pos + 4)) {
        return new Damage("record checksum mismatch", false);
      }
      return null;
    }

    private boolean isZeroOrPrefixOfHeader() {
      byte[] h = WalFormat.segmentHeader();
      for (int i = 0; i < bytes.length; i++) {
        if (bytes[i] != h[i] && bytes[i] != 0) {
          return false;
        }
      }
      return true;
    }

    /** The offset of the next intact record after {@code pos}, or the segment's length. */
    int nextIntactAfter(int pos) {
      for (int q = Math.max(pos + 1, firstRecord()); q + headerSize() <= bytes.length; q++) {
        int len = ByteReader.getInt(bytes, q);
        if (len < 0 || len > bytes.length - q - headerSize()) {
          continue;
        }
        if (version == 2 && !WalFormat.recordHeaderIntact(bytes, q)) {
          continue;
        }
        if (damageAt(q) == null) {
          return q;
        }
      }
      return bytes.length;
    }

    List<WalEdit> decode(int pos) {
      try {
        return WalEdit.decodeRecord(new ByteReader(bytes, pos + headerSize(), end(pos)));
      } catch (ByteReader.MalformedException e) {
        throw new CorruptionException(name, pos, "undecodable edit: " + e.getMessage());
      }
    }

    private boolean allZero(int from) {
      for (int i = from; i < bytes.length; i++) {
        if (bytes[i] != 0) {
          return false;
        }
      }
      return true;
    }
  }

  /** The intact records of a segment, copied after its header. */
  private static final class ByteWriterSink {
    private final byte[] src;
    private final io.basaltdb.engine.util.ByteWriter out;

    ByteWriterSink(byte[] src, int headerEnd) {
      this.src = src;
      this.out = new io.basaltdb.engine.util.ByteWriter(src.length);
      out.put(src, 0, headerEnd);
    }

    void copy(int from, int to) {
      out.put(src, from, to - from);
    }

    byte[] bytes() {
      return out.array();
    }

    int size() {
      return out.size();
    }
  }
}
