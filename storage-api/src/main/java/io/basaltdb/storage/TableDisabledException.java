package io.basaltdb.storage;

/** A read or write of a table that is disabled; enable it first. */
public class TableDisabledException extends InvalidArgumentException {
  private static final long serialVersionUID = 1L;

  public TableDisabledException(TableName table) {
    super("table " + table + " is disabled");
  }
}
