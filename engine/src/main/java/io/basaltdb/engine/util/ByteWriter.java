package io.basaltdb.engine.util;

import java.util.Arrays;

/**
 * A growable byte array with big-endian fixed-width and unsigned LEB128 varint writers.
 * Not thread-safe. The byte layouts of every format are built with it.
 */
public final class ByteWriter {
  private byte[] buf;
  private int size;

  public ByteWriter(int initialCapacity) {
    buf = new byte[Math.max(16, initialCapacity)];
  }

  public int size() {
    return size;
  }

  public void reset() {
    size = 0;
  }

  public byte[] array() {
    return buf;
  }

  public byte[] toByteArray() {
    return Arrays.copyOf(buf, size);
  }

  private void ensure(int extra) {
    if (size + extra > buf.length) {
      buf = Arrays.copyOf(buf, Math.max(buf.length * 2, size + extra));
    }
  }

  public ByteWriter put(byte b) {
    ensure(1);
    buf[size++] = b;
    return this;
  }

  public ByteWriter put(byte[] b) {
    return put(b, 0, b.length);
  }

  public ByteWriter put(byte[] b, int off, int len) {
    ensure(len);
    System.arraycopy(b, off, buf, size, len);
    size += len;
    return this;
  }

  public ByteWriter putInt(int v) {
    ensure(4);
    buf[size++] = (byte) (v >>> 24);
    buf[size++] = (byte) (v >>> 16);
    buf[size++] = (byte) (v >>> 8);
    buf[size++] = (byte) v;
    return this;
  }

  public ByteWriter putLong(long v) {
    ensure(8);
    for (int shift = 56; shift >= 0; shift -= 8) {
      buf[size++] = (byte) (v >>> shift);
    }
    return this;
  }

  public ByteWriter putVarLong(long v) {
    ensure(10);
    while ((v & ~0x7FL) != 0) {
      buf[size++] = (byte) ((v & 0x7F) | 0x80);
      v >>>= 7;
    }
    buf[size++] = (byte) v;
    return this;
  }

  public ByteWriter putVarInt(int v) {
    return putVarLong(v & 0xFFFFFFFFL);
  }

  /** A varint length followed by the bytes. */
  public ByteWriter putBytes(byte[] b) {
    putVarInt(b.length);
    return put(b);
  }

  /** Overwrites 4 bytes at an earlier position. */
  public void setInt(int pos, int v) {
    buf[pos] = (byte) (v >>> 24);
    buf[pos + 1] = (byte) (v >>> 16);
    buf[pos + 2] = (byte) (v >>> 8);
    buf[pos + 3] = (byte) v;
  }

}
