package io.basaltdb.storage;

/**
 * A transaction over a {@link Storage} ({@link Storage#begin}), itself a storage: its tables
 * read what the storage holds plus the transaction's own writes, which stay in the transaction
 * until {@link #commit} or {@link #rollback}. Two kinds: the embedded engine's ({@link
 * Transaction}: a snapshot, one atomic logged commit, write conflicts refused) and one kept in
 * the client over a storage without transactions of its own ({@link ClientTransaction}, HBase:
 * own writes seen, the commit row by row). Used by one thread at a time.
 */
public interface StorageTransaction extends Storage {
  /**
   * The most heap a transaction's uncommitted writes may take: the write that passes it is
   * refused ({@link TransactionTooLargeException}, 53200). A caller holding a statement's rows
   * to write them at once bounds them the same.
   */
  long MAX_PENDING_BYTES = 64L << 20;

  /** Which snapshot the transaction's reads see. */
  enum Isolation {
    /** A new snapshot for each statement ({@link #nextStatement()}). */
    READ_COMMITTED,
    /** One snapshot for the whole transaction. */
    SNAPSHOT,
    /**
     * SNAPSHOT, and at commit no key range the transaction read (gets, scans, the rows its
     * read-modify-writes read) may hold a write newer than its snapshot: else the commit fails
     * as a conflict. No write skew among serializable transactions.
     */
    SERIALIZABLE
  }

  /** A point to come back to with {@link #rollbackTo}: the writes made so far. */
  int mark();

  /** Takes back every write made after {@code mark}; the transaction goes on. */
  void rollbackTo(int mark);

  /** Applies the writes at {@code durability}; either way the transaction ends. */
  void commit(Durability durability);

  /** Drops the writes and ends the transaction (again: nothing). */
  void rollback();

  /** A new statement begins (a transaction reading a snapshot per statement takes one). */
  void nextStatement();

  /**
   * A read the commit must find unchanged, whatever the isolation: if {@code [start, stop)} of
   * {@code table} (empty stop: to the end) holds a write the transaction's snapshot did not see
   * when it commits, the commit fails as a conflict. What a constraint's check read (a foreign
   * key's parent row, its children), so two writers that each checked against the other's
   * unwritten change cannot both commit. A storage without atomic commits ignores it.
   */
  default void holdRead(TableName table, byte[] start, byte[] stop) {}

  /** Whether anything written is not taken back. */
  boolean hasWrites();

  /**
   * A row the transaction wrote, taken out of its commit ({@link #takeRows}): the write its
   * commit would have made, and the row it leaves over whatever is stored by then.
   */
  interface OwnRow {
    byte[] row();

    /** The row's net own cells as one mutation (markers, then puts), at their timestamps. */
    RowMutations mutation();

    /** {@code stored} (the row read whole from the storage) with this row's own writes over it. */
    Result over(Result stored);
  }

  /**
   * Takes the rows of {@code table} the transaction wrote out of it, in key order: its commit
   * no longer writes them, the caller does (over HBase, the SQL layer's index protocol writes
   * an indexed table's rows with their entries), and its reads no longer see them. Only for a
   * transaction whose commit is not atomic ({@link #atomicCommit} false), at its commit.
   */
  default java.util.List<OwnRow> takeRows(TableName table) {
    throw new UnsupportedOperationException("a transaction over " + location()
        + " commits its rows atomically; none can be taken out of it");
  }

  /**
   * True when a commit applies every row at once and refuses a write conflict (the embedded
   * engine); false when it applies row by row, each row atomic, and the last writer wins.
   */
  boolean atomicCommit();

  @Override
  default boolean inTransaction() {
    return true;
  }
}
