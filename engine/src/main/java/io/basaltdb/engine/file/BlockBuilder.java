package io.basaltdb.engine.file;

import io.basaltdb.storage.Cell;
import io.basaltdb.engine.util.ByteWriter;

/**
 * Builds the raw bytes of a data or index block: shared-prefix keys, a restart point every
 * {@code restartInterval} entries, the restart array and its count. Layout in
 * {@code engine/doc/file-format.md}. Not thread-safe; reused after {@link #reset()}.
 */
final class BlockBuilder {
  private final int restartInterval;
  private final ByteWriter out;
  private final ByteWriter key = new ByteWriter(64);
  private byte[] lastKey = new byte[64];
  private int lastKeyLen;
  private int[] restarts = new int[16];
  private int restartCount;
  private int entriesSinceRestart;
  private int entries;

  BlockBuilder(int restartInterval, int expectedSize) {
    this.restartInterval = restartInterval;
    this.out = new ByteWriter(expectedSize + 1024);
    reset();
  }

  void reset() {
    out.reset();
    restartCount = 0;
    entriesSinceRestart = 0;
    entries = 0;
    lastKeyLen = 0;
  }

  boolean isEmpty() {
    return entries == 0;
  }

  int entries() {
    return entries;
  }

  /** Raw size if finished now. */
  int estimatedSize() {
    return out.size() + 4 * (restartCount + 1) + 4;
  }

  void add(Cell cell, byte[] value) {
    key.reset();
    BlockFileFormat.encodeKey(cell, key);
    byte[] k = key.array();
    int klen = key.size();
    int shared = 0;
    if (entriesSinceRestart >= restartInterval || entries == 0) {
      if (restartCount == restarts.length) {
        restarts = java.util.Arrays.copyOf(restarts, restartCount * 2);
      }
      restarts[restartCount++] = out.size();
      entriesSinceRestart = 0;
    } else {
      int max = Math.min(klen, lastKeyLen);
      while (shared < max && k[shared] == lastKey[shared]) {
        shared++;
      }
    }
    out.putVarInt(shared);
    out.putVarInt(klen - shared);
    out.putVarInt(value.length);
    out.put(k, shared, klen - shared);
    out.putVarLong(cell.sequenceId());
    out.put(value);
    if (lastKey.length < klen) {
      lastKey = new byte[Math.max(klen, lastKey.length * 2)];
    }
    System.arraycopy(k, 0, lastKey, 0, klen);
    lastKeyLen = klen;
    entriesSinceRestart++;
    entries++;
  }

  /** Appends the restart array and returns the finished raw block (a view into a buffer). */
  ByteWriter finish() {
    for (int i = 0; i < restartCount; i++) {
      out.putInt(restarts[i]);
    }
    out.putInt(restartCount);
    return out;
  }
}
