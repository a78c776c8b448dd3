package io.basaltdb.engine.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Path;

/**
 * A file channel of {@link FaultInjectingFileSystem}: writes, truncations and fsyncs pass its
 * gate (where faults and crashes strike), and an fsync records how much of the file is durable.
 */
final class TrackedChannel extends FileChannel {
  private final FaultInjectingFileSystem fs;
  private final Path path;
  private final FileChannel ch;

  TrackedChannel(FaultInjectingFileSystem fs, Path path, FileChannel ch) {
    this.fs = fs;
    this.path = path;
    this.ch = ch;
  }

  @Override
  public int read(ByteBuffer dst) throws IOException {
    return ch.read(dst);
  }

  @Override
  public long read(ByteBuffer[] dsts, int offset, int length) throws IOException {
    return ch.read(dsts, offset, length);
  }

  @Override
  public int write(ByteBuffer src) throws IOException {
    return fs.guardedWrite(path, ch, src);
  }

  @Override
  public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
    return fs.guarded(FaultInjectingFileSystem.Op.WRITE, path, () -> ch.write(srcs, offset, length));
  }

  @Override
  public long position() throws IOException {
    return ch.position();
  }

  @Override
  public FileChannel position(long newPosition) throws IOException {
    ch.position(newPosition);
    return this;
  }

  @Override
  public long size() throws IOException {
    return ch.size();
  }

  @Override
  public FileChannel truncate(long size) throws IOException {
    fs.guarded(FaultInjectingFileSystem.Op.TRUNCATE, path, () -> ch.truncate(size));
    return this;
  }

  @Override
  public void force(boolean metaData) throws IOException {
    fs.guarded(FaultInjectingFileSystem.Op.SYNC, path, () -> {
      // durability is simulated (powerLoss), so the real fsync would only cost time
      fs.synced(path, ch.size());
      return null;
    });
  }

  @Override
  public long transferTo(long position, long count, WritableByteChannel target) throws IOException {
    return ch.transferTo(position, count, target);
  }

  @Override
  public long transferFrom(ReadableByteChannel src, long position, long count) throws IOException {
    return fs.guarded(FaultInjectingFileSystem.Op.WRITE, path,
        () -> ch.transferFrom(src, position, count));
  }

  @Override
  public int read(ByteBuffer dst, long position) throws IOException {
    return ch.read(dst, position);
  }

  @Override
  public int write(ByteBuffer src, long position) throws IOException {
    return fs.guarded(FaultInjectingFileSystem.Op.WRITE, path, () -> ch.write(src, position));
  }

  @Override
  public MappedByteBuffer map(MapMode mode, long position, long size) throws IOException {
    return ch.map(mode, position, size);
  }

  @Override
  public FileLock lock(long position, long size, boolean shared) throws IOException {
    return ch.lock(position, size, shared);
  }

  @Override
  public FileLock tryLock(long position, long size, boolean shared) throws IOException {
    return ch.tryLock(position, size, shared);
  }

  @Override
  protected void implCloseChannel() throws IOException {
    ch.close();
  }
}
