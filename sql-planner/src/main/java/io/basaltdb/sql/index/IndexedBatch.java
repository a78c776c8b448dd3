package io.basaltdb.sql.index;

import io.basaltdb.storage.Durability;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A statement's rows of an indexed table on a storage that writes one row atomically (HBase),
 * held and written {@value #SIZE} at a time by the client-side protocol ({@link
 * ClientIndexProtocol#writeAll}: a round trip per phase for all of them instead of one per row
 * and phase). A key already held sends the rows held first (its change must see their write).
 * Rows are written in order until one's change fails (a duplicate key, a value refused): those
 * before it are written, it and the later ones not, and its exception is thrown, as when each
 * row is written alone. Counts the rows written, in row order. Not thread-safe.
 */
public final class IndexedBatch {
  /** Rows written in one round of protocol calls. */
  public static final int SIZE = 500;

  private final ClientIndexProtocol protocol;
  private final boolean countUnchanged;
  private final List<ClientIndexProtocol.Pending> rows = new ArrayList<>();
  private final List<Runnable> done = new ArrayList<>();
  private long counted;
  private final Set<ByteBuffer> keys = new HashSet<>();
  /** Whether a batch failed in the storage: which of its rows were written is not known. */
  private boolean uncertain;

  /**
   * {@code countUnchanged}: whether a row its change leaves alone (an UPDATE of a row gone) is
   * counted as written, as a statement without ON DUPLICATE KEY counts it.
   */
  IndexedBatch(ClientIndexProtocol protocol, boolean countUnchanged) {
    this.protocol = protocol;
    this.countUnchanged = countUnchanged;
  }

  /**
   * Holds the row of {@code key} and its change; once its batch is written, {@code counted}
   * runs if the row counts as written.
   */
  public void add(byte[] key, Durability durability, IndexedRowWrite.Change change,
      Runnable counted) {
    if (keys.contains(ByteBuffer.wrap(key))) {
      flush();
    }
    rows.add(new ClientIndexProtocol.Pending(key, durability, change));
    this.done.add(counted);
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
    List<Runnable> told = new ArrayList<>(done);
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
    for (int k = 0; k < batch.size(); k++) {
      if (w.wrote()[k] || (countUnchanged && k < w.failedAt())) {
        counted++;
        told.get(k).run();
      }
    }
    if (w.failure() != null) {
      throw w.failure();
    }
  }

  /**
   * After {@code failure} of a row not yet held: writes the rows held (they come before it) and
   * returns what the statement throws, the exception of a held row that failed first if one
   * did, else {@code failure}.
   */
  public RuntimeException afterFailure(RuntimeException failure) {
    try {
      flush();
      return failure;
    } catch (RuntimeException earlier) {
      return earlier == failure ? failure : earlier;
    }
  }

  /** A row held, not yet sent: as it was {@linkplain #add added}. */
  public record Held(byte[] key, Durability durability, IndexedRowWrite.Change change,
      Runnable counted) {}

  /**
   * Takes back the rows held, unsent (to be written for another index list, {@link
   * IndexListLease}), in row order.
   */
  public List<Held> takeHeld() {
    List<Held> held = new ArrayList<>(rows.size());
    for (int k = 0; k < rows.size(); k++) {
      ClientIndexProtocol.Pending p = rows.get(k);
      held.add(new Held(p.key(), p.durability(), p.change(), done.get(k)));
    }
    rows.clear();
    done.clear();
    keys.clear();
    return held;
  }

  /** The rows written (or counted as written) so far. */
  public long counted() {
    return counted;
  }

  /** Whether a batch failed in the storage, so the rows it wrote are not known. */
  public boolean uncertain() {
    return uncertain;
  }
}
