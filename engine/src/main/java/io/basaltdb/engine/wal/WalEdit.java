package io.basaltdb.engine.wal;

import io.basaltdb.storage.Cell;
import io.basaltdb.storage.CellType;
import io.basaltdb.engine.util.ByteReader;
import io.basaltdb.engine.util.ByteWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * One logged row mutation: its sequence id, the region it belongs to and its cells (each
 * naming its family). Encoded as in {@code engine/doc/wal-format.md}: alone (an edit record),
 * or with the other parts of a write spanning regions, all sharing one sequence id, in one
 * record (a multi record: replayed whole or, torn, not at all). Immutable.
 */
public record WalEdit(long sequenceId, byte[] region, List<Cell> cells) {

  void encode(ByteWriter w) {
    w.put(WalFormat.KIND_EDIT);
    w.putVarLong(sequenceId);
    encodePart(w);
  }

  /** One record of the parts of a write spanning regions (one sequence id, at least two). */
  static void encodeMulti(ByteWriter w, List<WalEdit> parts) {
    long seq = parts.get(0).sequenceId();
    w.put(WalFormat.KIND_MULTI);
    w.putVarLong(seq);
    w.putVarInt(parts.size());
    for (WalEdit p : parts) {
      if (p.sequenceId() != seq) {
        throw new IllegalArgumentException("parts of one write share its sequence id");
      }
      p.encodePart(w);
    }
  }

  private void encodePart(ByteWriter w) {
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

  /** The edits of one record: one for an edit record, every part of a multi record. */
  static List<WalEdit> decodeRecord(ByteReader r) {
    byte kind = r.get();
    if (kind != WalFormat.KIND_EDIT && kind != WalFormat.KIND_MULTI) {
      throw new ByteReader.MalformedException("unknown record kind " + kind);
    }
    long seq = r.getVarLong();
    int parts = kind == WalFormat.KIND_EDIT ? 1 : r.getVarInt();
    if (parts < 1 || (kind == WalFormat.KIND_MULTI && parts < 2)) {
      throw new ByteReader.MalformedException("a multi record of " + parts + " parts");
    }
    List<WalEdit> out = new ArrayList<>(Math.min(parts, 64));
    for (int i = 0; i < parts; i++) {
      out.add(decodePart(r, seq));
    }
    if (r.hasRemaining()) {
      throw new ByteReader.MalformedException(r.remaining() + " trailing bytes in edit");
    }
    return out;
  }

  private static WalEdit decodePart(ByteReader r, long seq) {
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
    return new WalEdit(seq, region, cells);
  }
}
