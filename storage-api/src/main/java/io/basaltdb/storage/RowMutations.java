package io.basaltdb.storage;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/** Puts and deletes of one row applied together, atomically, in the order added. */
public final class RowMutations implements Row {
  private final byte[] row;
  private final List<Mutation> mutations = new ArrayList<>();

  public RowMutations(byte[] row) {
    this.row = Row.checkRow(row);
  }

  public RowMutations add(Mutation m) {
    if (!(m instanceof Put) && !(m instanceof Delete)) {
      throw new InvalidArgumentException("RowMutations takes puts and deletes, not "
          + m.getClass().getSimpleName());
    }
    if (!Arrays.equals(m.row(), row)) {
      throw new InvalidArgumentException("mutation of row " + Cell.printable(m.row())
          + " added to RowMutations of row " + Cell.printable(row));
    }
    mutations.add(m);
    return this;
  }

  @Override
  public byte[] row() {
    return row;
  }

  public List<Mutation> mutations() {
    return Collections.unmodifiableList(mutations);
  }
}
