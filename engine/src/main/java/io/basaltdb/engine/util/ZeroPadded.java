package io.basaltdb.engine.util;

/**
 * Decimal numbers padded with zeros to a width, as {@code String.format("%0<width>d")} writes
 * them, for file and directory names; without the formatter, whose first use in a process
 * (its parser, locale data) cost a fresh JVM's first connection tens of milliseconds.
 */
public final class ZeroPadded {
  private ZeroPadded() {}

  public static String of(long number, int width) {
    if (number < 0) {
      return String.format("%0" + width + "d", number);
    }
    String digits = Long.toString(number);
    if (digits.length() >= width) {
      return digits;
    }
    return "0".repeat(width - digits.length()) + digits;
  }
}
