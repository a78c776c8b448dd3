package io.basaltdb.sql.parser;

/**
 * What a statement's text begins with, read without parsing it or copying it: the checks made
 * at every prepare (a DDL word, EXPLAIN, INSERT or UPSERT, transaction control) before anything
 * heavier. Leading white space is skipped; a word matches in any case, as a prefix.
 */
public final class StatementHead {
  private StatementHead() {}

  /** Whether {@code sql}, past its leading white space, begins with one of {@code words}. */
  public static boolean startsWith(String sql, String... words) {
    int i = 0;
    while (i < sql.length() && Character.isWhitespace(sql.charAt(i))) {
      i++;
    }
    for (String w : words) {
      if (sql.regionMatches(true, i, w, 0, w.length())) {
        return true;
      }
    }
    return false;
  }
}
