package io.basaltdb.storage;

/**
 * Applies a put, delete, row mutations or an increment to a row only if a column's newest
 * value passes a test ({@code value <op> given}), is absent ({@link Builder#ifNotExists}) or
 * present ({@link Builder#ifExists}); the check and the write happen atomically under the
 * row's lock. (HBase 2.4's check-and-mutate takes an increment too; "exists" is written there
 * as a single-column value filter that drops rows missing the column.)
 */
public final class CheckAndMutate implements Row {
  private final byte[] row;
  private final byte[] family;
  private final byte[] qualifier;
  private final CompareOperator op;
  private final byte[] value; // null: must not exist, or with op null: must exist
  private final Row action;

  private CheckAndMutate(byte[] row, byte[] family, byte[] qualifier, CompareOperator op,
      byte[] value, Row action) {
    this.row = row;
    this.family = family;
    this.qualifier = qualifier;
    this.op = op;
    this.value = value;
    this.action = action;
  }

  public static Builder newBuilder(byte[] row) {
    return new Builder(row);
  }

  @Override
  public byte[] row() {
    return row;
  }

  public byte[] family() {
    return family;
  }

  public byte[] qualifier() {
    return qualifier;
  }

  /** The comparison; null for {@link Builder#ifExists}. */
  public CompareOperator op() {
    return op;
  }

  public byte[] value() {
    return value;
  }

  public Row action() {
    return action;
  }

  /** True when the condition holds for the current newest value ({@code null}: absent). */
  public boolean test(byte[] current) {
    if (op == null) {
      return current != null;
    }
    if (value == null) {
      return current == null;
    }
    return current != null && op.test(current, value);
  }

  /** Fluent construction: the condition first, then the action. */
  public static final class Builder {
    private final byte[] row;
    private byte[] family;
    private byte[] qualifier;
    private CompareOperator op;
    private byte[] value;
    private boolean conditionSet;

    private Builder(byte[] row) {
      this.row = Row.checkRow(row);
    }

    public Builder ifNotExists(byte[] family, byte[] qualifier) {
      this.family = Mutation.nonNull(family, "family");
      this.qualifier = Mutation.orEmpty(qualifier);
      this.op = CompareOperator.EQUAL;
      this.value = null;
      conditionSet = true;
      return this;
    }

    /** The column has a value (any, empty included). */
    public Builder ifExists(byte[] family, byte[] qualifier) {
      this.family = Mutation.nonNull(family, "family");
      this.qualifier = Mutation.orEmpty(qualifier);
      this.op = null;
      this.value = null;
      conditionSet = true;
      return this;
    }

    public Builder ifMatches(byte[] family, byte[] qualifier, CompareOperator op, byte[] value) {
      this.family = Mutation.nonNull(family, "family");
      this.qualifier = Mutation.orEmpty(qualifier);
      if (op == null) {
        throw new InvalidArgumentException("compare operator must not be null");
      }
      this.op = op;
      this.value = Mutation.nonNull(value, "value (use ifNotExists to test for absence)");
      conditionSet = true;
      return this;
    }

    public Builder ifEquals(byte[] family, byte[] qualifier, byte[] value) {
      return ifMatches(family, qualifier, CompareOperator.EQUAL, value);
    }

    public CheckAndMutate build(Put put) {
      return build((Row) put);
    }

    public CheckAndMutate build(Delete delete) {
      return build((Row) delete);
    }

    public CheckAndMutate build(RowMutations mutations) {
      return build((Row) mutations);
    }

    public CheckAndMutate build(Increment increment) {
      return build((Row) increment);
    }

    private CheckAndMutate build(Row action) {
      if (!conditionSet) {
        throw new InvalidArgumentException("check-and-mutate needs a condition");
      }
      if (!java.util.Arrays.equals(action.row(), row)) {
        throw new InvalidArgumentException("check-and-mutate of row " + Cell.printable(row)
            + " with an action on row " + Cell.printable(action.row()));
      }
      return new CheckAndMutate(row, family, qualifier, op, value, action);
    }
  }
}
