package io.basaltdb.storage;

/**
 * The kind of a cell. The codes are written to the WAL and to block files:
 * <b>frozen</b> — never renumber; add new kinds with new codes only.
 *
 * <p>At equal {row, family, qualifier, timestamp}, cells sort by code <em>descending</em>,
 * so delete markers come before the puts they may cover.
 *
 * <table>
 *   <caption>codes</caption>
 *   <tr><td>PUT</td><td>4</td><td>a value</td></tr>
 *   <tr><td>DELETE</td><td>8</td><td>one version: the column's cell at exactly this timestamp</td></tr>
 *   <tr><td>DELETE_FAMILY_VERSION</td><td>10</td><td>every column of the family at exactly this timestamp</td></tr>
 *   <tr><td>DELETE_COLUMN</td><td>12</td><td>every version of the column at or before this timestamp</td></tr>
 *   <tr><td>DELETE_FAMILY</td><td>14</td><td>every column of the family at or before this timestamp (a row delete writes one per family)</td></tr>
 * </table>
 *
 * <p>Family markers carry an empty qualifier, so they sort before every column of the row.
 */
public enum CellType {
  PUT((byte) 4),
  DELETE((byte) 8),
  DELETE_FAMILY_VERSION((byte) 10),
  DELETE_COLUMN((byte) 12),
  DELETE_FAMILY((byte) 14);

  private static final CellType[] BY_CODE = new CellType[256];

  static {
    for (CellType t : values()) {
      BY_CODE[t.code & 0xff] = t;
    }
  }

  private final byte code;

  CellType(byte code) {
    this.code = code;
  }

  public byte code() {
    return code;
  }

  public boolean isDelete() {
    return this != PUT;
  }

  public boolean isFamilyMarker() {
    return this == DELETE_FAMILY || this == DELETE_FAMILY_VERSION;
  }

  /** Decodes a stored code; returns null for an unknown code (the caller reports corruption). */
  public static CellType ofCode(byte code) {
    return BY_CODE[code & 0xff];
  }
}
