package io.basaltdb.engine.file;

import io.basaltdb.storage.BloomType;
import io.basaltdb.storage.Compression;
import io.basaltdb.storage.FamilyOptions;

/**
 * How a block file is written: target block size, compression, bloom keys and accuracy, and
 * whether keys share prefixes (without it every entry is a restart point).
 */
public record WriterOptions(int blockSize, Compression compression, BloomType bloomType,
    double bloomFalsePositiveRate, boolean prefixEncoding) {
  public static final WriterOptions DEFAULT =
      new WriterOptions(64 * 1024, Compression.LZ4, BloomType.ROW, 0.01, true);

  /** How a family's files are written, as its options set it (bloom accuracy 1%). */
  public static WriterOptions of(FamilyOptions o) {
    return new WriterOptions(o.blockSize(), o.compression(), o.bloomType(), 0.01,
        o.prefixEncoding());
  }

  public WriterOptions(int blockSize, Compression compression, BloomType bloomType,
      double bloomFalsePositiveRate) {
    this(blockSize, compression, bloomType, bloomFalsePositiveRate, true);
  }
}
