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
    return wordAt(sql, blanksFrom(sql, 0), words);
  }

  /**
   * Whether {@code sql}, past its leading white space and comments ({@code /* ... *&#47;} and
   * {@code --} lines, as Hibernate's {@code use_sql_comments} puts first), begins with one of
   * {@code words}: for a caller that hands the whole text to the parser, which skips them too.
   */
  public static boolean startsWithPastComments(String sql, String... words) {
    int i = pastLeadingComments(sql);
    return i >= 0 && wordAt(sql, i, words);
  }

  /**
   * The index in {@code sql} past its leading white space and comments ({@code /* ... *&#47;},
   * {@code --} lines), or -1 when one of those comments does not end.
   */
  public static int pastLeadingComments(String sql) {
    int i = blanksFrom(sql, 0);
    while (true) {
      if (sql.startsWith("/*", i)) {
        int end = sql.indexOf("*/", i + 2);
        if (end < 0) {
          return -1;
        }
        i = blanksFrom(sql, end + 2);
      } else if (sql.startsWith("--", i)) {
        int end = sql.indexOf('\n', i);
        if (end < 0) {
          return -1;
        }
        i = blanksFrom(sql, end + 1);
      } else {
        return i;
      }
    }
  }

  private static boolean wordAt(String sql, int i, String... words) {
    for (String w : words) {
      if (sql.regionMatches(true, i, w, 0, w.length())) {
        return true;
      }
    }
    return false;
  }

  private static int blanksFrom(String sql, int i) {
    while (i < sql.length() && Character.isWhitespace(sql.charAt(i))) {
      i++;
    }
    return i;
  }
}
