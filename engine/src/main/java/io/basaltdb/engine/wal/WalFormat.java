package io.basaltdb.engine.wal;

import io.basaltdb.engine.util.ByteReader;
import io.basaltdb.engine.util.Checksums;
import java.nio.file.Path;

/**
 * Constants and header checks of {@code engine/doc/wal-format.md}. Version 2 is written;
 * version 1 segments (left by older releases) are still read. Both are frozen.
 */
public final class WalFormat {
  public static final int FORMAT_VERSION = 2;
  public static final long MAGIC = 0x42534C5457414C31L; // "BSLTWAL1"
  public static final int HEADER_SIZE = 16;
  /** Version 2: length u32, payload crc u32, header crc u32 (over the 8 bytes before). */
  public static final int RECORD_HEADER_SIZE = 12;
  /** Version 1: length u32, crc u32 over the length bytes and the payload. */
  public static final int V1_RECORD_HEADER_SIZE = 8;
  public static final byte KIND_EDIT = 1;
  /** The parts of one write spanning regions (secondary indexes): one sequence id. */
  public static final byte KIND_MULTI = 2;

  private WalFormat() {}

  public static String segmentName(long number) {
    return "wal-" + io.basaltdb.engine.util.ZeroPadded.of(number, 20) + ".log";
  }

  /** The segment number of a file name, or -1 if it is not a segment. */
  public static long segmentNumber(Path p) {
    String n = p.getFileName().toString();
    if (!n.startsWith("wal-") || !n.endsWith(".log") || n.length() != 28) {
      return -1;
    }
    try {
      return Long.parseLong(n.substring(4, 24));
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  /** Fills a version-2 record header at {@code at}, before a payload of {@code len} bytes. */
  static void writeRecordHeader(byte[] b, int at, int len) {
    putInt(b, at, len);
    putInt(b, at + 4, Checksums.crc32c(b, at + RECORD_HEADER_SIZE, len));
    putInt(b, at + 8, Checksums.crc32c(b, at, 8));
  }

  /** Whether the version-2 record header at {@code at} is intact. */
  static boolean recordHeaderIntact(byte[] b, int at) {
    return Checksums.crc32c(b, at, 8) == ByteReader.getInt(b, at + 8);
  }

  /** A version-2 segment header. */
  static byte[] segmentHeader() {
    byte[] h = new byte[HEADER_SIZE];
    for (int i = 0; i < 8; i++) {
      h[i] = (byte) (MAGIC >>> (56 - 8 * i));
    }
    putInt(h, 8, FORMAT_VERSION);
    putInt(h, 12, Checksums.crc32c(h, 0, 12));
    return h;
  }

  static void putInt(byte[] b, int at, int v) {
    b[at] = (byte) (v >>> 24);
    b[at + 1] = (byte) (v >>> 16);
    b[at + 2] = (byte) (v >>> 8);
    b[at + 3] = (byte) v;
  }
}
