package io.basaltdb.engine.wal;

import io.basaltdb.engine.Cell;
import io.basaltdb.engine.CellType;
import io.basaltdb.engine.util.ByteReader;
import io.basaltdb.engine.util.ByteWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * One logged row mutation: its sequence id, the region it belongs to and its cells (each
 * naming its family). Encoded as in {@code engine/doc/wal-format.md}. Immutable.
 */
public record WalEdit(long sequenceId, byte[] region, List<Cell> cells) {

  void encode(ByteWriter w) {
    w.put(WalFormat.KIND_EDIT);
    w.putVarLong(sequenceId);
    w.putBytes(region);
    w.putVarInt(cells.size());
    for (Cell c : cells) {
      w.putBytes(c.family());
      w.putBytes(c.row());
      w.putBytes(c.qualifier());
      w.putLong(c.timestamp());
      w.put(c.type().code());
      w.putBytes(c.value());
    }
  }

  static WalEdit decode(ByteReader r) {
    byte kind = r.get();
    if (kind != WalFormat.KIND_EDIT) {
      throw new ByteReader.MalformedException("unknown record kind " + kind);
    }
    long seq = r.getVarLong();
    byte[] region = r.getBytes();
    int n = r.getVarInt();
    List<Cell> cells = new ArrayList<>(Math.min(n, 1024));
    for (int i = 0; i < n; i++) {
      byte[] family = r.getBytes();
      byte[] row = r.getBytes();
      byte[] qual = r.getBytes();
      long ts = r.getLong();
      CellType type = CellType.ofCode(r.get());
      if (type == null) {
        throw new ByteReader.MalformedException("unknown cell type");
      }
      cells.add(new Cell(row, family, qual, ts, type, seq, r.getBytes()));
    }
    if (r.hasRemaining()) {
      throw new ByteReader.MalformedException(r.remaining() + " trailing bytes in edit");
    }
    return new WalEdit(seq, region, cells);
  }
}
