package io.basaltdb.engine.file;

import io.basaltdb.storage.BloomType;
import io.basaltdb.storage.Cell;
import io.basaltdb.storage.Compression;
import io.basaltdb.storage.StorageIOException;
import io.basaltdb.engine.cell.CellComparator;
import io.basaltdb.engine.io.FileSystem;
import io.basaltdb.engine.util.ByteWriter;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Factory;

/**
 * Writes one block file from cells given in {@link CellComparator} order (checked), then
 * {@link #finish()} writes bloom, index levels, info and trailer, fsyncs and closes.
 * Format: {@code engine/doc/file-format.md}. Not thread-safe; one writer per file.
 */
public final class BlockFileWriter implements AutoCloseable {
  private static final LZ4Compressor LZ4 = LZ4Factory.fastestInstance().fastCompressor();

  private record IndexEntry(Cell lastCell, BlockHandle handle) {}

  private final FileSystem fs;
  private final Path path;
  private final byte[] family;
  private final WriterOptions options;
  private final long createdMillis;
  private final FileChannel channel;
  private final OutputStream out;
  private long offset;
  private boolean finished;

  private final BlockBuilder data;
  private final List<IndexEntry> leafIndex = new ArrayList<>();
  private final BloomFilter.Builder bloom;
  private final ByteWriter bloomKey = new ByteWriter(64);
  private byte[] lastBloomRow;
  private byte[] lastBloomQualifier;

  private Cell first;
  private Cell last;
  private long cells;
  private long deletes;
  private long maxSeq;
  private long minTs = Long.MAX_VALUE;
  private long maxTs = Long.MIN_VALUE;
  private long rawDataBytes;

  public BlockFileWriter(FileSystem fs, Path path, byte[] family, WriterOptions options,
      long createdMillis) {
    this.fs = fs;
    this.path = path;
    this.family = family;
    this.options = options;
    this.createdMillis = createdMillis;
    this.data = new BlockBuilder(options.prefixEncoding() ? BlockFileFormat.RESTART_INTERVAL : 1,
        options.blockSize());
    this.bloom = options.bloomType() == BloomType.NONE ? null
        : new BloomFilter.Builder(options.bloomFalsePositiveRate());
    try {
      channel = fs.createNew(path);
    } catch (IOException e) {
      throw StorageIOException.wrap("cannot create block file " + path, e);
    }
    out = new BufferedOutputStream(Channels.newOutputStream(channel), 256 * 1024);
  }

  public Path path() {
    return path;
  }

  public long cellCount() {
    return cells;
  }

  public void append(Cell c) {
    if (last != null && CellComparator.INSTANCE.compare(last, c) >= 0) {
      throw new IllegalStateException("cells out of order: " + last + " then " + c);
    }
    if (first == null) {
      first = c;
    }
    last = c;
    cells++;
    if (c.type().isDelete()) {
      deletes++;
    }
    maxSeq = Math.max(maxSeq, c.sequenceId());
    minTs = Math.min(minTs, c.timestamp());
    maxTs = Math.max(maxTs, c.timestamp());
    if (bloom != null) {
      addToBloom(c);
    }
    data.add(c, c.value());
    if (data.estimatedSize() >= options.blockSize()) {
      flushDataBlock();
    }
  }

  private void addToBloom(Cell c) {
    boolean newRow = lastBloomRow == null || !Arrays.equals(lastBloomRow, c.row());
    if (newRow) {
      bloom.addHash(BloomFilter.hash(c.row()));
      lastBloomRow = c.row();
      lastBloomQualifier = null;
    }
    if (options.bloomType() == BloomType.ROWCOL
        && (lastBloomQualifier == null || !Arrays.equals(lastBloomQualifier, c.qualifier()))) {
      bloom.addHash(BloomFilter.hash(rowColKey(bloomKey, c.row(), c.qualifier())));
      lastBloomQualifier = c.qualifier();
    }
  }

  /** The bloom key of a column: row_len varint, row, qualifier. */
  public static byte[] rowColKey(ByteWriter scratch, byte[] row, byte[] qualifier) {
    scratch.reset();
    scratch.putVarInt(row.length);
    scratch.put(row);
    scratch.put(qualifier);
    return scratch.toByteArray();
  }

  private void flushDataBlock() {
    ByteWriter raw = data.finish();
    rawDataBytes += raw.size();
    BlockHandle h = writeBlock(raw.array(), raw.size(), options.compression());
    leafIndex.add(new IndexEntry(last, h));
    data.reset();
  }

  private BlockHandle writeBlock(byte[] raw, int len, Compression compression) {
    byte[] payload = raw;
    int payloadLen = len;
    byte codec = BlockFileFormat.CODEC_NONE;
    if (compression == Compression.LZ4) {
      byte[] c = new byte[LZ4.maxCompressedLength(len)];
      int clen = LZ4.compress(raw, 0, len, c, 0, c.length);
      if (clen <= len - len / 8) {
        payload = c;
        payloadLen = clen;
        codec = BlockFileFormat.CODEC_LZ4;
      }
    }
    byte[] tail = new byte[BlockFileFormat.ENVELOPE_OVERHEAD];
    tail[0] = codec;
    tail[1] = (byte) (len >>> 24);
    tail[2] = (byte) (len >>> 16);
    tail[3] = (byte) (len >>> 8);
    tail[4] = (byte) len;
    java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
    crc.update(payload, 0, payloadLen);
    crc.update(tail, 0, 5);
    int v = (int) crc.getValue();
    tail[5] = (byte) (v >>> 24);
    tail[6] = (byte) (v >>> 16);
    tail[7] = (byte) (v >>> 8);
    tail[8] = (byte) v;
    BlockHandle h = new BlockHandle(offset, payloadLen);
    write(payload, payloadLen);
    write(tail, tail.length);
    return h;
  }

  private void write(byte[] b, int len) {
    try {
      out.write(b, 0, len);
    } catch (IOException e) {
      throw StorageIOException.wrap("cannot write block file " + path, e);
    }
    offset += len;
  }

  /** Writes the tail of the file, fsyncs and closes it. Requires at least one cell. */
  public FileInfo finish() {
    if (cells == 0) {
      throw new IllegalStateException("a block file needs at least one cell: " + path);
    }
    if (!data.isEmpty()) {
      flushDataBlock();
    }
    BlockHandle bloomHandle = null;
    if (bloom != null) {
      byte[] b = bloom.build().encode();
      bloomHandle = writeBlock(b, b.length, Compression.NONE);
    }
    List<IndexEntry> level = leafIndex;
    int levels = 0;
    BlockBuilder ib = new BlockBuilder(1, options.blockSize());
    ByteWriter hv = new ByteWriter(16);
    while (true) {
      levels++;
      List<IndexEntry> parent = new ArrayList<>();
      ib.reset();
      for (int i = 0; i < level.size(); i++) {
        IndexEntry e = level.get(i);
        hv.reset();
        e.handle().encode(hv);
        ib.add(e.lastCell(), hv.toByteArray());
        boolean lastOne = i == level.size() - 1;
        if ((ib.estimatedSize() >= options.blockSize() && !lastOne) || lastOne) {
          ByteWriter raw = ib.finish();
          parent.add(new IndexEntry(e.lastCell(), writeBlock(raw.array(), raw.size(),
              options.compression())));
          ib.reset();
        }
      }
      if (parent.size() == 1) {
        level = parent;
        break;
      }
      level = parent;
    }
    BlockHandle root = level.get(0).handle();
    FileInfo info = new FileInfo(family, cells, deletes, maxSeq, minTs, maxTs, first, last,
        options.bloomType(), createdMillis, rawDataBytes);
    byte[] ib2 = info.encode();
    BlockHandle infoHandle = writeBlock(ib2, ib2.length, Compression.NONE);
    byte[] trailer = new Trailer(BlockFileFormat.FORMAT_VERSION, root, levels, bloomHandle,
        infoHandle, leafIndex.size()).encode();
    write(trailer, trailer.length);
    try {
      out.flush();
      channel.force(true);
      channel.close();
    } catch (IOException e) {
      throw StorageIOException.wrap("cannot finish block file " + path, e);
    }
    finished = true;
    return info;
  }

  /** Closes; a writer not finished deletes its partial file. */
  @Override
  public void close() {
    if (finished) {
      return;
    }
    try {
      channel.close();
      fs.deleteIfExists(path);
    } catch (IOException e) {
      throw StorageIOException.wrap("cannot remove partial block file " + path, e);
    }
  }
}
