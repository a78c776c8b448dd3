package io.basaltdb.engine.wal;

import io.basaltdb.engine.CorruptionException;
import io.basaltdb.engine.StorageIOException;
import io.basaltdb.engine.util.ByteReader;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Consumer;
import java.util.zip.CRC32C;

/**
 * Replays the log's segments in order ({@code engine/doc/wal-format.md}, "Replay and damage"):
 * hands every whole edit to a consumer, truncates a torn tail of the newest segment, and raises
 * {@link CorruptionException} naming segment and offset for any other damage. Stateless.
 */
public final class WalReader {
  /** What a replay saw. */
  public record ReplayStats(int segments, long edits, long maxSequenceId, long truncatedBytes) {}

  private WalReader() {}

  /** The segment files in {@code dir}, in number order. */
  public static List<Path> segments(Path dir) throws IOException {
    List<Path> out = new ArrayList<>();
    if (!Files.isDirectory(dir)) {
      return out;
    }
    try (var s = Files.list(dir)) {
      s.filter(p -> WalFormat.segmentNumber(p) >= 0).forEach(out::add);
    }
    out.sort(Comparator.comparingLong(WalFormat::segmentNumber));
    return out;
  }

  public static ReplayStats replay(Path dir, Consumer<WalEdit> consumer) {
    try {
      List<Path> segs = segments(dir);
      long edits = 0;
      long maxSeq = 0;
      long truncated = 0;
      for (int i = 0; i < segs.size(); i++) {
        boolean newest = i == segs.size() - 1;
        long[] r = replaySegment(segs.get(i), newest, consumer);
        edits += r[0];
        maxSeq = Math.max(maxSeq, r[1]);
        truncated += r[2];
      }
      return new ReplayStats(segs.size(), edits, maxSeq, truncated);
    } catch (IOException e) {
      throw StorageIOException.wrap("cannot read write-ahead log in " + dir, e);
    }
  }

  /** Returns {edits, maxSeq, truncatedBytes}. */
  private static long[] replaySegment(Path seg, boolean newest, Consumer<WalEdit> consumer)
      throws IOException {
    byte[] b = Files.readAllBytes(seg);
    String name = seg.toString();
    if (b.length < WalFormat.HEADER_SIZE) {
      if (newest) {
        // a crash while the segment was being created: nothing in it was ever acknowledged
        Files.delete(seg);
        return new long[] {0, 0, b.length};
      }
      throw new CorruptionException(name, 0, "segment shorter than its header");
    }
    ByteReader h = new ByteReader(b);
    if (h.getLong() != WalFormat.MAGIC) {
      throw new CorruptionException(name, 0, "bad segment magic");
    }
    int version = h.getInt();
    if (version != WalFormat.FORMAT_VERSION) {
      throw new CorruptionException(name, 8, "unsupported WAL version " + version);
    }
    int pos = WalFormat.HEADER_SIZE;
    long edits = 0;
    long maxSeq = 0;
    while (pos < b.length) {
      String torn = tornAt(b, pos, name);
      if (torn != null) {
        if (!newest) {
          throw new CorruptionException(name, pos, torn + " in a segment that is not the newest");
        }
        truncate(seg, pos);
        return new long[] {edits, maxSeq, b.length - pos};
      }
      int len = ByteReader.getInt(b, pos);
      int end = pos + WalFormat.RECORD_HEADER_SIZE + len;
      WalEdit edit;
      try {
        edit = WalEdit.decode(new ByteReader(b, pos + WalFormat.RECORD_HEADER_SIZE, end));
      } catch (ByteReader.MalformedException e) {
        throw new CorruptionException(name, pos, "undecodable edit: " + e.getMessage());
      }
      consumer.accept(edit);
      edits++;
      maxSeq = Math.max(maxSeq, edit.sequenceId());
      pos = end;
    }
    return new long[] {edits, maxSeq, 0};
  }

  /**
   * Null when a whole record with a good checksum starts at {@code pos}; a description when
   * the rest of the segment is a torn tail; throws when it is corruption.
   */
  private static String tornAt(byte[] b, int pos, String name) {
    int remaining = b.length - pos;
    if (allZero(b, pos)) {
      return "zero-filled tail";
    }
    if (remaining < WalFormat.RECORD_HEADER_SIZE) {
      return "partial record header";
    }
    int len = ByteReader.getInt(b, pos);
    if (len < 0 || len > remaining - WalFormat.RECORD_HEADER_SIZE) {
      return "record running past the end";
    }
    int end = pos + WalFormat.RECORD_HEADER_SIZE + len;
    CRC32C crc = new CRC32C();
    crc.update(b, pos, 4);
    crc.update(b, pos + WalFormat.RECORD_HEADER_SIZE, len);
    if ((int) crc.getValue() == ByteReader.getInt(b, pos + 4)) {
      return null;
    }
    if (end == b.length) {
      return "checksum mismatch on the last record";
    }
    throw new CorruptionException(name, pos,
        "record checksum mismatch with " + (b.length - end) + " bytes after it");
  }

  private static boolean allZero(byte[] b, int from) {
    for (int i = from; i < b.length; i++) {
      if (b[i] != 0) {
        return false;
      }
    }
    return true;
  }

  private static void truncate(Path seg, long size) throws IOException {
    try (FileChannel ch = FileChannel.open(seg, StandardOpenOption.WRITE)) {
      ch.truncate(size);
      ch.force(true);
    }
  }
}
