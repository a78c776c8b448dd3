package io.basaltdb.engine.wal;

import java.nio.file.Path;

/** Constants of {@code engine/doc/wal-format.md} (version 1, frozen). */
public final class WalFormat {
  public static final int FORMAT_VERSION = 1;
  public static final long MAGIC = 0x42534C5457414C31L; // "BSLTWAL1"
  public static final int HEADER_SIZE = 16;
  public static final int RECORD_HEADER_SIZE = 8;
  public static final byte KIND_EDIT = 1;

  private WalFormat() {}

  public static String segmentName(long number) {
    return String.format("wal-%020d.log", number);
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
}
