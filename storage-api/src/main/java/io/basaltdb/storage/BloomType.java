package io.basaltdb.storage;

/** Which keys a family's bloom filters hold. The code is written to disk: frozen. */
public enum BloomType {
  NONE((byte) 0),
  ROW((byte) 1),
  ROWCOL((byte) 2);

  private final byte code;

  BloomType(byte code) {
    this.code = code;
  }

  public byte code() {
    return code;
  }

  /** Parses a setting such as {@code 'ROWCOL'} (any case); an unknown name is refused clearly. */
  public static BloomType parse(String s) {
    for (BloomType t : values()) {
      if (t.name().equalsIgnoreCase(s == null ? "" : s.trim())) {
        return t;
      }
    }
    throw new InvalidArgumentException("unknown BLOOMFILTER '" + s + "': use NONE, ROW or ROWCOL");
  }

  public static BloomType ofCode(byte code) {
    for (BloomType t : values()) {
      if (t.code == code) {
        return t;
      }
    }
    return null;
  }
}
