package io.basaltdb.engine.util;

/**
 * A bounds-checked cursor over a byte array, the reading twin of {@link ByteWriter}.
 * Every read past the end or malformed varint throws {@link MalformedException}, which
 * the format readers turn into a {@code CorruptionException} naming the file and offset.
 * Not thread-safe.
 */
public final class ByteReader {
  private final byte[] buf;
  private final int limit;
  private int pos;

  public ByteReader(byte[] buf) {
    this(buf, 0, buf.length);
  }

  public ByteReader(byte[] buf, int offset, int limit) {
    this.buf = buf;
    this.pos = offset;
    this.limit = limit;
  }

  /** Thrown when the bytes do not hold what the format says they should. */
  public static final class MalformedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public MalformedException(String message) {
      super(message);
    }
  }

  public int position() {
    return pos;
  }

  public void position(int p) {
    if (p < 0 || p > limit) {
      throw new MalformedException("position " + p + " outside [0," + limit + "]");
    }
    pos = p;
  }

  public int remaining() {
    return limit - pos;
  }

  public boolean hasRemaining() {
    return pos < limit;
  }

  public byte[] array() {
    return buf;
  }

  private void need(int n) {
    if (n < 0 || limit - pos < n) {
      throw new MalformedException("need " + n + " bytes at " + pos + ", have " + (limit - pos));
    }
  }

  public byte get() {
    need(1);
    return buf[pos++];
  }

  public int getInt() {
    need(4);
    int v = ((buf[pos] & 0xff) << 24) | ((buf[pos + 1] & 0xff) << 16)
        | ((buf[pos + 2] & 0xff) << 8) | (buf[pos + 3] & 0xff);
    pos += 4;
    return v;
  }

  public long getLong() {
    need(8);
    long v = 0;
    for (int i = 0; i < 8; i++) {
      v = (v << 8) | (buf[pos + i] & 0xff);
    }
    pos += 8;
    return v;
  }

  public long getVarLong() {
    if (limit - pos >= 10) { // room for the longest varint: no bounds check per byte
      long v = 0;
      for (int shift = 0; shift < 64; shift += 7) {
        byte b = buf[pos++];
        v |= (long) (b & 0x7F) << shift;
        if (b >= 0) {
          return v;
        }
      }
      throw new MalformedException("varint longer than 10 bytes at " + pos);
    }
    long v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      need(1);
      byte b = buf[pos++];
      v |= (long) (b & 0x7F) << shift;
      if ((b & 0x80) == 0) {
        return v;
      }
    }
    throw new MalformedException("varint longer than 10 bytes at " + pos);
  }

  public int getVarInt() {
    if (pos < limit && buf[pos] >= 0) { // one byte, 0..127: most lengths
      return buf[pos++];
    }
    long v = getVarLong();
    if (v < 0 || v > Integer.MAX_VALUE) {
      throw new MalformedException("varint " + v + " out of int range at " + pos);
    }
    return (int) v;
  }

  public byte[] getBytes(int n) {
    need(n);
    byte[] out = new byte[n];
    System.arraycopy(buf, pos, out, 0, n);
    pos += n;
    return out;
  }

  /** A varint length followed by that many bytes. */
  public byte[] getBytes() {
    return getBytes(getVarInt());
  }

  public static long getLong(byte[] b, int off) {
    return ((long) getInt(b, off) << 32) | (getInt(b, off + 4) & 0xffffffffL);
  }

  public static int getInt(byte[] b, int off) {
    return ((b[off] & 0xff) << 24) | ((b[off + 1] & 0xff) << 16) | ((b[off + 2] & 0xff) << 8)
        | (b[off + 3] & 0xff);
  }
}
