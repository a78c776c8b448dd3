package io.basaltdb.sql.prepare;

/**
 * The rows of parameters that end a multi-row {@code INSERT|UPSERT ... VALUES}: {@code , (?, ?),
 * (?, ?)} after its first row, found by a scan back from the text's end, so that the parser
 * (a few microseconds per {@code ?} in a row constructor) reads only the head and the first
 * row. Only parameter markers, commas, parentheses and blanks are taken: a quote cannot be in
 * them, so they cannot be inside a string or a quoted name (a text whose string runs into them
 * would be unterminated: the head's parse then fails and the whole text is parsed as before); a
 * text holding a comment is left alone (a comment could hide rows). Stateless.
 */
final class ParameterRows {
  private ParameterRows() {}

  /** Rows found after the head: how many, their width, and where the head ends. */
  record Tail(int rows, int width, int headEnd) {}

  /** The trailing rows of parameters of {@code sql}, or null when it has none (or a comment). */
  static Tail of(String sql) {
    if (sql.contains("--") || sql.contains("/*")) {
      return null;
    }
    int rows = 0;
    int width = -1;
    int headEnd = sql.length();
    int i = blankBefore(sql, sql.length() - 1);
    while (i >= 0 && sql.charAt(i) == ')') {
      int j = i - 1;
      int markers = 0;
      while (true) {
        j = blankBefore(sql, j);
        if (j < 0 || sql.charAt(j) != '?') {
          return tail(rows, width, headEnd);
        }
        markers++;
        j = blankBefore(sql, j - 1);
        if (j < 0 || sql.charAt(j) != ',') {
          break;
        }
        j--;
      }
      if (j < 0 || sql.charAt(j) != '(') {
        break;
      }
      int comma = blankBefore(sql, j - 1);
      if (comma < 0 || sql.charAt(comma) != ',' || width >= 0 && width != markers) {
        break; // the first row (after VALUES), or rows of different widths
      }
      width = markers;
      rows++;
      headEnd = comma;
      i = blankBefore(sql, comma - 1);
    }
    return tail(rows, width, headEnd);
  }

  private static Tail tail(int rows, int width, int headEnd) {
    return rows == 0 ? null : new Tail(rows, width, headEnd);
  }

  /** The index of the last non-blank character at or before {@code i}, or -1. */
  private static int blankBefore(String s, int i) {
    while (i >= 0 && Character.isWhitespace(s.charAt(i))) {
      i--;
    }
    return i;
  }
}
