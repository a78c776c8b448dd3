package io.basaltdb.engine.file;

import io.basaltdb.engine.util.ByteReader;
import io.basaltdb.engine.util.ByteWriter;
import io.basaltdb.engine.util.Checksums;

/** The fixed 60-byte trailer at the end of a block file ({@code engine/doc/file-format.md}). */
record Trailer(int version, BlockHandle index, int indexLevels, BlockHandle bloom,
    BlockHandle info, int dataBlocks) {

  byte[] encode() {
    ByteWriter w = new ByteWriter(BlockFileFormat.TRAILER_SIZE);
    w.putInt(version);
    w.putLong(index.offset());
    w.putInt(index.length());
    w.putInt(indexLevels);
    w.putLong(bloom == null ? 0 : bloom.offset());
    w.putInt(bloom == null ? 0 : bloom.length());
    w.putLong(info.offset());
    w.putInt(info.length());
    w.putInt(dataBlocks);
    w.putInt(Checksums.crc32c(w.array(), 0, w.size()));
    w.putLong(BlockFileFormat.MAGIC);
    return w.toByteArray();
  }

  /** Decodes and checks a trailer; a bad one raises CorruptionException naming the file. */
  static Trailer decode(byte[] b, String file, long fileLength) {
    ByteReader r = new ByteReader(b);
    r.position(48);
    int crc = r.getInt();
    long magic = r.getLong();
    long at = fileLength - BlockFileFormat.TRAILER_SIZE;
    if (magic != BlockFileFormat.MAGIC) {
      throw new io.basaltdb.storage.CorruptionException(file, at + 52, "bad magic, not a block file");
    }
    if (crc != Checksums.crc32c(b, 0, 48)) {
      throw new io.basaltdb.storage.CorruptionException(file, at, "trailer checksum mismatch");
    }
    r.position(0);
    int version = r.getInt();
    if (version != BlockFileFormat.FORMAT_VERSION) {
      throw new io.basaltdb.storage.CorruptionException(file, at,
          "unsupported block file version " + version);
    }
    BlockHandle index = new BlockHandle(r.getLong(), r.getInt());
    int levels = r.getInt();
    BlockHandle bloom = new BlockHandle(r.getLong(), r.getInt());
    BlockHandle info = new BlockHandle(r.getLong(), r.getInt());
    int blocks = r.getInt();
    for (BlockHandle h : new BlockHandle[] {index, bloom, info}) {
      if (h.offset() < 0 || h.length() < 0 || (h.length() > 0 && h.end() > at)) {
        throw new io.basaltdb.storage.CorruptionException(file, at,
            "trailer handle " + h + " outside the file");
      }
    }
    if (levels < 1 || levels > 16) {
      throw new io.basaltdb.storage.CorruptionException(file, at, "bad index levels " + levels);
    }
    return new Trailer(version, index, levels, bloom.length() == 0 ? null : bloom, info, blocks);
  }
}
