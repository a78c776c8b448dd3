package io.basaltdb.sql.prepare;

import io.basaltdb.sql.parser.StatementHead;

/**
 * The rows of parameters that end a multi-row {@code INSERT|UPSERT ... VALUES}: {@code , (?, ?),
 * (?, ?)} after its first row, found by a scan back from the text's end, so that the parser
 * (a few microseconds per {@code ?} in a row constructor) reads only the head and the first
 * row. Only parameter markers, commas, parentheses and blanks are taken: a quote cannot be in
 * them, so they cannot be inside a string or a quoted name (a text whose string runs into them
 * would be unterminated: the head's parse then fails and the whole text is parsed as before).
 * Comments: those that begin the text (Hibernate's {@code use_sql_comments}; skipped as {@link
 * StatementHead} skips them) and one block comment that ends it (a tag made to keep a text
 * unseen), none a hint ({@code /*+}); a text holding any other comment marker ({@code --}, a
 * block comment's start or end elsewhere) is left alone, since such a comment could hide rows
 * the scan would count. Stateless.
 */
final class ParameterRows {
  private ParameterRows() {}

  /** Rows found after the head: how many, their width, and where the head ends. */
  record Tail(int rows, int width, int headEnd) {}

  /** The trailing rows of parameters of {@code sql}, or null when it has none. */
  static Tail of(String sql) {
    // the text between the comments that may begin and end it: [from, to)
    int from = StatementHead.pastLeadingComments(sql);
    if (from < 0 || sql.lastIndexOf("/*+", from) >= 0) {
      return null;
    }
    int to = sql.length();
    int last = blankBefore(sql, sql.length() - 1, from);
    if (last >= from + 3 && sql.startsWith("*/", last - 1)) {
      int begin = sql.lastIndexOf("/*", last - 2);
      if (begin < from || sql.startsWith("/*+", begin)
          || sql.indexOf("*/", begin + 2) != last - 1) { // it ends at its first end
        return null;
      }
      to = begin;
    }
    if (holdsCommentMarker(sql, from, to)) {
      return null;
    }
    int rows = 0;
    int width = -1;
    int headEnd = to;
    int i = blankBefore(sql, to - 1, from);
    while (i >= from && sql.charAt(i) == ')') {
      int j = i - 1;
      int markers = 0;
      while (true) {
        j = blankBefore(sql, j, from);
        if (j < from || sql.charAt(j) != '?') {
          return tail(rows, width, headEnd);
        }
        markers++;
        j = blankBefore(sql, j - 1, from);
        if (j < from || sql.charAt(j) != ',') {
          break;
        }
        j--;
      }
      if (j < from || sql.charAt(j) != '(') {
        break;
      }
      int comma = blankBefore(sql, j - 1, from);
      if (comma < from || sql.charAt(comma) != ',' || width >= 0 && width != markers) {
        break; // the first row (after VALUES), or rows of different widths
      }
      width = markers;
      rows++;
      headEnd = comma;
      i = blankBefore(sql, comma - 1, from);
    }
    return tail(rows, width, headEnd);
  }

  private static Tail tail(int rows, int width, int headEnd) {
    return rows == 0 ? null : new Tail(rows, width, headEnd);
  }

  /** The last non-blank character's index in [{@code from}, {@code i}], or {@code from - 1}. */
  private static int blankBefore(String s, int i, int from) {
    while (i >= from && Character.isWhitespace(s.charAt(i))) {
      i--;
    }
    return i < from ? from - 1 : i;
  }

  /** Whether {@code --}, {@code /*} or <code>*&#47;</code> is in [{@code from}, {@code to}). */
  private static boolean holdsCommentMarker(String s, int from, int to) {
    for (int i = from; i < to - 1; i++) {
      char c = s.charAt(i);
      char next = s.charAt(i + 1);
      if (c == '-' && next == '-' || c == '/' && next == '*' || c == '*' && next == '/') {
        return true;
      }
    }
    return false;
  }

}
