package io.basaltdb.sql.index;

import io.basaltdb.storage.Durability;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/**
 * A statement's rows of an indexed table on a storage that writes one row atomically (HBase),
 * held and written {@value #SIZE} at a time by the client-side protocol ({@link
 * ClientIndexProtocol#writeAll}: a round trip per phase for all of them instead of one per row
 * and phase). A key already held sends the rows held first (its change must see their write).
 * Rows are written in order until one's change fails (a duplicate key, a value refused): those
 * before it are written, it and the later ones not, and its exception is thrown, as when each
 * row is written alone. Each row written, or left unchanged by its change, is told to its
 * {@code done} in row order. Not thread-safe.
 */
public final class IndexedBatch {
  /** Rows written in one round of protocol calls. */
  public static final int SIZE = 500;

  private final ClientIndexProtocol protocol;
  private final List<ClientIndexProtocol.Pending> rows = new ArrayList<>();
  private final List<Consumer<Boolean>> done = new ArrayList<>();
  private final Set<ByteBuffer> keys = new HashSet<>();
  /** Whether a batch failed in the storage: which of its rows were written is not known. */
  private boolean uncertain;

  IndexedBatch(ClientIndexProtocol protocol) {
    this.protocol = protocol;
  }

  /**
   * Holds the row of {@code key} and its change; {@code done} hears whether it wrote (false:
   * its change found nothing to do) once its batch is written.
   */
  public void add(byte[] key, Durability durability, IndexedRowWrite.Change change,
      Consumer<Boolean> done) {
    if (keys.contains(ByteBuffer.wrap(key))) {
      flush();
    }
    rows.add(new ClientIndexProtocol.Pending(key, durability, change));
    this.done.add(done);
    keys.add(ByteBuffer.wrap(key));
    if (rows.size() >= SIZE) {
      flush();
    }
  }

  /** Writes the rows held; throws the exception of a row whose change failed. */
  public void flush() {
    if (rows.isEmpty()) {
      return;
    }
    List<ClientIndexProtocol.Pending> batch = new ArrayList<>(rows);
    List<Consumer<Boolean>> told = new ArrayList<>(done);
    rows.clear();
    done.clear();
    keys.clear();
    ClientIndexProtocol.Written w;
    try {
      w = protocol.writeAll(batch, null, false);
    } catch (RuntimeException e) {
      uncertain = true;
      throw e;
    }
    for (int k = 0; k < w.failedAt(); k++) {
      told.get(k).accept(w.wrote()[k]);
    }
    if (w.failure() != null) {
      throw w.failure();
    }
  }

  /** Drops the rows held (a row before them failed: they are not written). */
  public void discard() {
    rows.clear();
    done.clear();
    keys.clear();
  }

  /** Whether a batch failed in the storage, so the rows it wrote are not known. */
  public boolean uncertain() {
    return uncertain;
  }
}
