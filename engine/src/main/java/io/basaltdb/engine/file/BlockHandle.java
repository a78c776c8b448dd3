package io.basaltdb.engine.file;

import io.basaltdb.engine.util.ByteReader;
import io.basaltdb.engine.util.ByteWriter;

/** Where a block's payload lies in a file: offset and stored length (the envelope adds 9). */
public record BlockHandle(long offset, int length) {
  public void encode(ByteWriter out) {
    out.putVarLong(offset);
    out.putVarInt(length);
  }

  public static BlockHandle decode(ByteReader in) {
    return new BlockHandle(in.getVarLong(), in.getVarInt());
  }

  public long end() {
    return offset + length + BlockFileFormat.ENVELOPE_OVERHEAD;
  }
}
