package io.basaltdb.engine.region;

import io.basaltdb.storage.FamilyOptions;
import io.basaltdb.storage.InvalidArgumentException;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * A region's identity and layout: a name (safe as a directory name), the row range
 * {@code [startRow, endRow)} (empty arrays = unbounded) and its families with their options.
 * Validated on construction; immutable.
 */
public record RegionDescriptor(String name, byte[] startRow, byte[] endRow,
    Map<String, FamilyOptions> families) {
  private static final Pattern SAFE_NAME = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}");

  public RegionDescriptor {
    checkName("region", name);
    if (families == null || families.isEmpty()) {
      throw new InvalidArgumentException("region " + name + " needs at least one column family");
    }
    for (String f : families.keySet()) {
      checkName("column family", f);
    }
    startRow = startRow == null ? new byte[0] : startRow;
    endRow = endRow == null ? new byte[0] : endRow;
    if (endRow.length > 0 && Arrays.compareUnsigned(startRow, endRow) >= 0) {
      throw new InvalidArgumentException("region " + name + ": start row must sort before end row");
    }
    families = Collections.unmodifiableMap(new LinkedHashMap<>(families));
  }

  /** A region covering every row. */
  public static RegionDescriptor whole(String name, Map<String, FamilyOptions> families) {
    return new RegionDescriptor(name, new byte[0], new byte[0], families);
  }

  public static void checkName(String what, String n) {
    if (n == null || !SAFE_NAME.matcher(n).matches()) {
      throw new InvalidArgumentException("invalid " + what + " name '" + n
          + "': use 1-128 letters, digits, '_', '-' or '.', not starting with '-' or '.'");
    }
  }

  public boolean containsRow(byte[] row) {
    return Arrays.compareUnsigned(row, startRow) >= 0
        && (endRow.length == 0 || Arrays.compareUnsigned(row, endRow) < 0);
  }
}
