package io.basaltdb.engine.file;

import io.basaltdb.storage.BloomType;
import io.basaltdb.storage.Cell;
import io.basaltdb.engine.util.ByteReader;
import io.basaltdb.engine.util.ByteWriter;

/**
 * What a block file knows about itself (the info block, {@code engine/doc/file-format.md}):
 * family, counts, sequence and time ranges, first and last cell. Immutable.
 */
public record FileInfo(byte[] family, long cellCount, long deleteCount, long maxSequenceId,
    long minTimestamp, long maxTimestamp, Cell firstCell, Cell lastCell, BloomType bloomType,
    long createdMillis, long rawDataBytes) {

  byte[] encode() {
    ByteWriter w = new ByteWriter(256);
    w.putBytes(family);
    w.putVarLong(cellCount);
    w.putVarLong(deleteCount);
    w.putVarLong(maxSequenceId);
    w.putLong(minTimestamp);
    w.putLong(maxTimestamp);
    w.putBytes(BlockFileFormat.encodeKey(firstCell));
    w.putVarLong(firstCell.sequenceId());
    w.putBytes(BlockFileFormat.encodeKey(lastCell));
    w.putVarLong(lastCell.sequenceId());
    w.put(bloomType.code());
    w.putLong(createdMillis);
    w.putVarLong(rawDataBytes);
    return w.toByteArray();
  }

  static FileInfo decode(byte[] raw) {
    ByteReader r = new ByteReader(raw);
    byte[] family = r.getBytes();
    long cells = r.getVarLong();
    long deletes = r.getVarLong();
    long maxSeq = r.getVarLong();
    long minTs = r.getLong();
    long maxTs = r.getLong();
    byte[] fk = r.getBytes();
    Cell first = BlockFileFormat.decodeKey(fk, 0, fk.length, family, r.getVarLong(), null);
    byte[] lk = r.getBytes();
    Cell last = BlockFileFormat.decodeKey(lk, 0, lk.length, family, r.getVarLong(), null);
    BloomType bloom = BloomType.ofCode(r.get());
    if (bloom == null) {
      throw new ByteReader.MalformedException("unknown bloom type");
    }
    return new FileInfo(family, cells, deletes, maxSeq, minTs, maxTs, first, last, bloom,
        r.getLong(), r.getVarLong());
  }
}
