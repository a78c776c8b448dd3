package io.basaltdb.engine.file;

import io.basaltdb.storage.BloomType;
import io.basaltdb.storage.Cell;
import io.basaltdb.storage.CorruptionException;
import io.basaltdb.storage.StorageIOException;
import io.basaltdb.engine.cache.BlockCache;
import io.basaltdb.engine.cell.CellIterator;
import io.basaltdb.engine.util.ByteReader.MalformedException;
import io.basaltdb.engine.io.FileSystem;
import io.basaltdb.engine.util.ByteWriter;
import io.basaltdb.engine.util.Unmapper;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.CRC32C;
import net.jpountz.lz4.LZ4Exception;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4SafeDecompressor;

/**
 * An open block file: trailer, info and root index in memory; data, index and bloom blocks
 * read on demand through the shared {@link BlockCache}, each checked against its CRC32C.
 * Thread-safe: positional reads only; each {@link #scanner()} is single-threaded.
 */
public final class BlockFileReader implements AutoCloseable {
  // The safe decompressor: bounded by the stored length, and the JNI one on Linux x86_64
  // (lz4-java's "fast" decompressor falls back to a slow pure-Java implementation).
  private static final LZ4SafeDecompressor LZ4 = LZ4Factory.fastestInstance().safeDecompressor();

  private final Path path;
  private final String name;
  private final FileChannel channel;
  private final long length;
  private final BlockCache cache;
  private final long fileId;
  private final Trailer trailer;
  private final FileInfo info;
  private final Block rootIndex;
  /** The whole file mapped read-only (null for files of 2 GiB and more: those use pread). */
  private final java.nio.MappedByteBuffer mapped;
  private volatile boolean closed;

  private BlockFileReader(Path path, FileChannel channel, BlockCache cache) throws IOException {
    this.path = path;
    this.name = path.toString();
    this.channel = channel;
    this.cache = cache;
    this.fileId = cache.newFileId();
    this.length = channel.size();
    this.mapped = length > 0 && length < Integer.MAX_VALUE
        ? channel.map(FileChannel.MapMode.READ_ONLY, 0, length) : null;
    if (length < BlockFileFormat.TRAILER_SIZE) {
      throw new CorruptionException(name, 0, "file of " + length + " bytes is shorter than a trailer");
    }
    byte[] t = readFully(length - BlockFileFormat.TRAILER_SIZE, BlockFileFormat.TRAILER_SIZE);
    this.trailer = Trailer.decode(t, name, length);
    byte[] infoRaw = readBlockBytes(trailer.info(), null);
    try {
      this.info = FileInfo.decode(infoRaw);
    } catch (MalformedException e) {
      throw new CorruptionException(name, trailer.info().offset(), "bad info block: " + e.getMessage());
    }
    this.rootIndex = parse(trailer.index(), readBlockBytes(trailer.index(), null));
  }

  /** Opens a file; a missing or damaged file raises an exception naming it. */
  public static BlockFileReader open(FileSystem fs, Path path, BlockCache cache) {
    FileChannel ch;
    try {
      ch = fs.openForRead(path);
    } catch (NoSuchFileException e) {
      throw new CorruptionException("block file " + path + " is missing");
    } catch (IOException e) {
      throw StorageIOException.wrap("cannot open block file " + path, e);
    }
    try {
      return new BlockFileReader(path, ch, cache);
    } catch (IOException e) {
      closeQuietly(ch);
      throw StorageIOException.wrap("cannot read block file " + path, e);
    } catch (RuntimeException e) {
      closeQuietly(ch);
      throw e;
    }
  }

  private static void closeQuietly(FileChannel ch) {
    try {
      ch.close();
    } catch (IOException ignored) {
      // already failing
    }
  }

  public Path path() {
    return path;
  }

  public FileInfo info() {
    return info;
  }

  public long length() {
    return length;
  }

  public int indexLevels() {
    return trailer.indexLevels();
  }

  public int dataBlockCount() {
    return trailer.dataBlocks();
  }

  /** False when the row is certainly absent (bloom filter says so). */
  public boolean mightContainRow(byte[] row) {
    BloomFilter b = bloom();
    return b == null || b.mightContainHash(BloomFilter.hash(row));
  }

  /** False when the column is certainly absent; only ROWCOL files can tell. */
  public boolean mightContainColumn(byte[] row, byte[] qualifier) {
    BloomFilter b = bloom();
    if (b == null) {
      return true;
    }
    if (info.bloomType() != BloomType.ROWCOL) {
      return b.mightContainHash(BloomFilter.hash(row));
    }
    return b.mightContain(BlockFileWriter.rowColKey(new ByteWriter(row.length + 16), row,
        qualifier));
  }

  private BloomFilter bloom() {
    BlockHandle h = trailer.bloom();
    if (h == null) {
      return null;
    }
    return cache.get(fileId, h.offset(), () -> {
      try {
        return BloomFilter.decode(readBlockBytes(h, null));
      } catch (MalformedException e) {
        throw new CorruptionException(name, h.offset(), "bad bloom block: " + e.getMessage());
      }
    });
  }

  Block block(BlockHandle h) {
    return cache.get(fileId, h.offset(), () -> parse(h, readBlockBytes(h, null)),
        cachePriority);
  }

  /** A block for a scanner, which counts whether it came from the cache or the file. */
  private Block block(BlockHandle h, Scanner counts) {
    counts.blocks++;
    return cache.get(fileId, h.offset(), () -> {
      counts.blocksFromFile++;
      return parse(h, readBlockBytes(h, counts));
    }, cachePriority);
  }

  private volatile boolean cachePriority;

  /** Blocks of this file enter the cache on their first miss (IN_MEMORY families). */
  public void setCachePriority(boolean priority) {
    cachePriority = priority;
  }

  private Block parse(BlockHandle h, byte[] raw) {
    try {
      return new Block(raw);
    } catch (MalformedException e) {
      throw new CorruptionException(name, h.offset(), "bad block: " + e.getMessage());
    }
  }

  /** A per-thread direct buffer for block reads: the read lands there without a heap copy. */
  private static final ThreadLocal<ByteBuffer[]> READ_BUFFER =
      ThreadLocal.withInitial(() -> new ByteBuffer[] {ByteBuffer.allocateDirect(128 * 1024)});

  /** A block's bytes, checked and decompressed; LZ4's output counted into {@code counts}. */
  private byte[] readBlockBytes(BlockHandle h, Scanner counts) {
    if (h.offset() < 0 || h.length() < 0 || h.end() > length - BlockFileFormat.TRAILER_SIZE) {
      throw new CorruptionException(name, h.offset(), "block handle " + h + " outside the file");
    }
    if (closed) {
      throw new io.basaltdb.storage.ClosedException("block file " + name);
    }
    int n = h.length();
    int total = n + BlockFileFormat.ENVELOPE_OVERHEAD;
    ByteBuffer b;
    if (mapped != null) {
      // immutable file, mapped: the block is read in place, no system call and no copy
      b = mapped.slice((int) h.offset(), total);
    } else {
      ByteBuffer[] holder = READ_BUFFER.get();
      if (holder[0].capacity() < total) {
        holder[0] = ByteBuffer.allocateDirect(Math.max(total, holder[0].capacity() * 2));
      }
      b = holder[0];
      b.clear().limit(total);
      readFully(b, h.offset());
    }
    CRC32C crc = new CRC32C();
    crc.update(b.duplicate().position(0).limit(n + 5));
    if ((int) crc.getValue() != b.getInt(n + 5)) {
      throw new CorruptionException(name, h.offset(), "block checksum mismatch");
    }
    byte codec = b.get(n);
    int rawLen = b.getInt(n + 1);
    if (codec == BlockFileFormat.CODEC_NONE) {
      if (rawLen != n) {
        throw new CorruptionException(name, h.offset(), "raw block length mismatch");
      }
      byte[] out = new byte[n];
      b.get(0, out);
      return out;
    }
    if (codec != BlockFileFormat.CODEC_LZ4 || rawLen < 0 || rawLen > (1 << 30)) {
      throw new CorruptionException(name, h.offset(), "bad block codec " + codec + "/" + rawLen);
    }
    byte[] out = new byte[rawLen];
    if (counts != null) {
      counts.bytesDecompressed += rawLen;
    }
    try {
      int written = LZ4.decompress(b, 0, n, ByteBuffer.wrap(out), 0, rawLen);
      if (written != rawLen) {
        throw new CorruptionException(name, h.offset(), "LZ4 block length mismatch");
      }
    } catch (LZ4Exception e) {
      throw new CorruptionException(name, h.offset(), "LZ4 block does not decompress");
    }
    return out;
  }

  private void readFully(ByteBuffer buf, long pos) {
    int len = buf.remaining();
    if (pos < 0 || pos + len > length) {
      throw new CorruptionException(name, pos, "read of " + len + " bytes past end " + length);
    }
    try {
      while (buf.hasRemaining()) {
        int r = channel.read(buf, pos + buf.position());
        if (r < 0) {
          throw new CorruptionException(name, pos, "unexpected end of file");
        }
      }
    } catch (IOException e) {
      throw StorageIOException.wrap("cannot read " + name + " at " + pos, e);
    }
  }

  private byte[] readFully(long pos, int len) {
    ByteBuffer buf = ByteBuffer.allocate(len);
    readFully(buf, pos);
    return buf.array();
  }

  /**
   * The last row of the middle data block, found by walking the middle entry of each index
   * level: a row near the middle of the file, to split a region at. Null if it cannot be read.
   */
  public byte[] midRow() {
    Block block = rootIndex;
    for (int level = 0; ; level++) {
      List<Cell> entries = new java.util.ArrayList<>();
      List<BlockHandle> handles = new java.util.ArrayList<>();
      Block.Iter it = block.iterator(info.family());
      for (it.seekToFirst(); it.valid(); it.next()) {
        entries.add(it.current());
        handles.add(BlockHandle.decode(it.valueReader()));
      }
      if (entries.isEmpty()) {
        return null;
      }
      int mid = (entries.size() - 1) / 2;
      if (level == trailer.indexLevels() - 1) {
        return entries.get(mid).row();
      }
      block = block(handles.get(mid));
    }
  }

  /**
   * The row of the last cell sorting before row {@code row} (in this file's family), or null if
   * none: the step a reversed scan takes. Walks the index down the path a seek would take,
   * remembering the entry before it at each level (the last cell of the preceding block), and
   * looks inside the data block the seek lands in.
   */
  public byte[] lastRowBefore(byte[] row) {
    Cell target = io.basaltdb.engine.cell.CellComparator.firstOnRow(row, info.family());
    if (io.basaltdb.engine.cell.CellComparator.INSTANCE.compare(info.firstCell(), target) >= 0) {
      return null;
    }
    Cell best = null;
    Block block = rootIndex;
    for (int level = 0; level < trailer.indexLevels(); level++) {
      Block.Iter it = block.iterator(info.family());
      Cell previous = it.seekRememberingLastBefore(target); // index keys: each block's last
      BlockHandle child = it.valid() ? BlockHandle.decode(it.valueReader()) : null;
      if (previous != null) {
        best = previous; // the last cell of the blocks before the path: all < target
      }
      if (child == null) {
        return best == null ? null : best.row();
      }
      block = block(child);
    }
    Cell c = block.iterator(info.family()).seekRememberingLastBefore(target);
    if (c != null) {
      best = c;
    }
    return best == null ? null : best.row();
  }

  public CellIterator scanner() {
    return new Scanner();
  }

  /** Closes the file. The caller guarantees no read of it is in progress or will follow. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    cache.invalidateFile(fileId);
    Unmapper.unmap(mapped);
    try {
      channel.close();
    } catch (IOException e) {
      throw StorageIOException.wrap("cannot close " + name, e);
    }
  }

  @Override
  public String toString() {
    return path.getFileName().toString();
  }

  /**
   * Walks the index levels down to data blocks. {@code levels[0]} iterates the root;
   * {@code levels[n-1]} iterates a leaf index block; {@code dataIter} the data block.
   */
  /** Cells a forward seek walks before it descends the index again. */
  private static final int SEEK_STEPS = 8;

  private final class Scanner implements CellIterator {
    private final int depth = trailer.indexLevels();
    private final Block.Iter[] levels = new Block.Iter[depth];
    private Block.Iter dataIter;
    private final byte[] family = info.family();
    // what this scanner did (ScanMetrics): cells come to, blocks fetched, from the file, bytes
    private long stepped;
    private long blocks;
    private long blocksFromFile;
    private long bytesDecompressed;

    @Override
    public void addTo(io.basaltdb.storage.ScanMetrics m) {
      m.fileCells.addAndGet(stepped);
      m.blocksFromCache.addAndGet(blocks - blocksFromFile);
      m.blocksFromFile.addAndGet(blocksFromFile);
      m.bytesDecompressed.addAndGet(bytesDecompressed);
      stepped = blocks = blocksFromFile = bytesDecompressed = 0;
    }

    @Override
    public void seekToFirst() {
      try {
        levels[0] = rootIndex.iterator(family);
        levels[0].seekToFirst();
        descend(0, null);
      } catch (MalformedException e) {
        throw corrupt(e);
      }
    }

    /**
     * Forward of the current cell, a short hop (the next row, past a few unwanted columns)
     * is walked comparing encoded keys, and a target further on but still inside the current
     * data block (at or before its last cell, the leaf index entry's key) is searched in that
     * block; else, and backwards, the index is descended from the root.
     */
    @Override
    public void seek(Cell target) {
      try {
        if (dataIter != null && dataIter.valid() && dataIter.compareTo(target) < 0) {
          for (int i = 0; i < SEEK_STEPS; i++) {
            next();
            if (dataIter == null || !dataIter.valid() || dataIter.compareTo(target) >= 0) {
              return;
            }
          }
          Block.Iter leaf = levels[depth - 1];
          if (leaf.valid() && leaf.compareTo(target) >= 0) {
            dataIter.seek(target);
            if (dataIter.valid()) {
              return;
            }
          }
        }
        levels[0] = rootIndex.iterator(family);
        levels[0].seek(target);
        descend(0, target);
      } catch (MalformedException e) {
        throw corrupt(e);
      }
    }

    /** From an index iterator at {@code level} positioned on an entry, open its children. */
    private void descend(int level, Cell target) {
      while (true) {
        Block.Iter it = levels[level];
        if (!it.valid()) {
          if (level == 0) {
            dataIter = null;
            return;
          }
          level--;
          levels[level].next();
          target = null;
          continue;
        }
        BlockHandle h = BlockHandle.decode(it.valueReader());
        Block child = block(h, this);
        Block.Iter ci = child.iterator(family);
        if (target == null) {
          ci.seekToFirst();
        } else {
          ci.seek(target);
        }
        if (level + 1 < depth) {
          levels[level + 1] = ci;
          level++;
          continue;
        }
        dataIter = ci;
        if (ci.valid()) {
          return;
        }
        it.next();
        target = null;
      }
    }

    @Override
    public Cell current() {
      return dataIter == null ? null : dataIter.current();
    }

    @Override
    public void next() {
      if (dataIter == null) {
        return;
      }
      try {
        stepped++;
        dataIter.next();
        if (!dataIter.valid()) {
          levels[depth - 1].next();
          descend(depth - 1, null);
        }
      } catch (MalformedException e) {
        throw corrupt(e);
      }
    }

    private CorruptionException corrupt(MalformedException e) {
      return new CorruptionException(name + ": malformed block entry: " + e.getMessage());
    }
  }
}
