package io.basaltdb.engine.util;

import java.util.zip.CRC32C;

/** CRC32C (Castagnoli), the checksum of every on-disk record and block. */
public final class Checksums {
  private Checksums() {}

  public static int crc32c(byte[] b, int off, int len) {
    CRC32C c = new CRC32C();
    c.update(b, off, len);
    return (int) c.getValue();
  }
}
