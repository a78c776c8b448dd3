package io.basaltdb.storage;

/** Per-block compression of a family's files. The code is written to disk: frozen. */
public enum Compression {
  NONE((byte) 0),
  LZ4((byte) 1);

  private final byte code;

  Compression(byte code) {
    this.code = code;
  }

  public byte code() {
    return code;
  }

  /** Parses a setting such as {@code 'LZ4'} (any case); an unknown name is refused clearly. */
  public static Compression parse(String s) {
    for (Compression c : values()) {
      if (c.name().equalsIgnoreCase(s == null ? "" : s.trim())) {
        return c;
      }
    }
    throw new InvalidArgumentException("unknown COMPRESSION '" + s + "': use NONE or LZ4");
  }
}
