package io.basaltdb.storage;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Split keys for pre-splitting a table into regions of even key ranges: over a byte key
 * space (keys read as unsigned big-endian numbers, as HBase's {@code UniformSplit}) and over
 * the hex-string key space of hashed or random ids ({@code "00000000"} to {@code "ffffffff"}, as
 * HBase's {@code HexStringSplit}), the usual remedy for hot-spotting on sequential keys.
 */
public final class Splits {
  private Splits() {}

  /**
   * {@code regions - 1} split keys dividing {@code [start, end)} evenly, each of the length of the
   * longer bound (at least 1 byte); an empty end means all 0xff.
   */
  public static byte[][] uniform(byte[] start, byte[] end, int regions) {
    if (regions < 1) {
      throw new InvalidArgumentException("regions must be >= 1, got " + regions);
    }
    int width = Math.max(1, Math.max(start.length, end.length));
    BigInteger lo = toNumber(start, width);
    BigInteger hi = end.length == 0 ? BigInteger.ONE.shiftLeft(8 * width) : toNumber(end, width);
    if (hi.subtract(lo).compareTo(BigInteger.valueOf(regions)) < 0) {
      throw new InvalidArgumentException("the range is too small for " + regions + " regions");
    }
    byte[][] keys = new byte[regions - 1][];
    BigInteger span = hi.subtract(lo);
    for (int i = 1; i < regions; i++) {
      BigInteger k = lo.add(span.multiply(BigInteger.valueOf(i)).divide(BigInteger.valueOf(regions)));
      keys[i - 1] = toBytes(k, width);
    }
    return keys;
  }

  /** {@code regions - 1} split keys over lower-case hex strings of {@code digits} characters. */
  public static byte[][] hexString(int regions, int digits) {
    if (regions < 1 || digits < 1 || digits > 32) {
      throw new InvalidArgumentException("need regions >= 1 and 1..32 hex digits");
    }
    BigInteger space = BigInteger.ONE.shiftLeft(4 * digits);
    if (space.compareTo(BigInteger.valueOf(regions)) < 0) {
      throw new InvalidArgumentException(digits + " hex digits cannot make " + regions + " regions");
    }
    byte[][] keys = new byte[regions - 1][];
    for (int i = 1; i < regions; i++) {
      String hex = space.multiply(BigInteger.valueOf(i)).divide(BigInteger.valueOf(regions))
          .toString(16);
      keys[i - 1] = ("0".repeat(digits - hex.length()) + hex).getBytes(StandardCharsets.US_ASCII);
    }
    return keys;
  }

  private static BigInteger toNumber(byte[] key, int width) {
    return new BigInteger(1, Arrays.copyOf(key, width));
  }

  private static byte[] toBytes(BigInteger v, int width) {
    byte[] raw = v.toByteArray();
    byte[] out = new byte[width];
    int n = Math.min(raw.length, width);
    System.arraycopy(raw, raw.length - n, out, width - n, n);
    return out;
  }

  /** Refuses split keys that are null, empty or not strictly ascending (any storage's rule). */
  public static void check(byte[][] keys) {
    if (keys == null) {
      throw new InvalidArgumentException("split keys must not be null");
    }
    for (int i = 0; i < keys.length; i++) {
      if (keys[i] == null || keys[i].length == 0) {
        throw new InvalidArgumentException("split key #" + i + " is null or empty");
      }
      if (i > 0 && Arrays.compareUnsigned(keys[i - 1], keys[i]) >= 0) {
        throw new InvalidArgumentException("split keys must be strictly ascending: #" + (i - 1)
            + " " + Cell.printable(keys[i - 1]) + " >= #" + i + " " + Cell.printable(keys[i]));
      }
    }
  }
}
