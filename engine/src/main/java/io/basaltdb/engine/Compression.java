package io.basaltdb.engine;

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
}
