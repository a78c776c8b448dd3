package io.basaltdb.engine;

/** Anything addressed to one row: mutations and gets (the elements of a batch). */
public interface Row {
  byte[] row();
}
