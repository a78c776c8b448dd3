package io.basaltdb.sql.parser;

import java.util.ArrayList;
import java.util.List;

/**
 * Phoenix writes the names in a hint separated by spaces ({@code /*+ INDEX(t i) *}{@code /});
 * Calcite's grammar wants commas. This rewrites the text of each hint comment so that names
 * separated only by spaces inside its parentheses are separated by a comma, and leaves the
 * rest of the statement as it is: string literals, quoted identifiers and other comments are
 * skipped whole. A statement without {@code /*+} is returned unchanged.
 */
public final class HintText {
  private HintText() {}

  public static String withCommas(String sql) {
    if (!sql.contains("/*+")) {
      return sql;
    }
    StringBuilder out = new StringBuilder(sql.length() + 8);
    int i = 0;
    int n = sql.length();
    while (i < n) {
      char c = sql.charAt(i);
      int end;
      if (c == '\'' || c == '"') {
        end = quoted(sql, i, c);
      } else if (sql.startsWith("--", i)) {
        int eol = sql.indexOf('\n', i);
        end = eol < 0 ? n : eol + 1;
      } else if (sql.startsWith("/*+", i)) {
        int close = sql.indexOf("*/", i + 3);
        end = close < 0 ? n : close + 2;
        out.append(hint(sql.substring(i, end)));
        i = end;
        continue;
      } else if (sql.startsWith("/*", i)) {
        int close = sql.indexOf("*/", i + 2);
        end = close < 0 ? n : close + 2;
      } else {
        end = i + 1;
      }
      out.append(sql, i, end);
      i = end;
    }
    return out.toString();
  }

  /** The end (exclusive) of the quoted text starting at {@code start}; doubled quotes stay in. */
  /**
   * {@code sql} with each match of {@code pattern} that starts outside string literals and
   * comments (and quoted identifiers when {@code identifiers}) edited: {@code edit} appends what
   * replaces the text from the match's start and returns where the original text resumes.
   * Returns {@code sql} itself when nothing matches.
   */
  static String rewriteOutside(String sql, java.util.regex.Pattern pattern, boolean identifiers,
      java.util.function.ToIntBiFunction<java.util.regex.Matcher, StringBuilder> edit) {
    java.util.regex.Matcher m = pattern.matcher(sql);
    if (!m.find()) {
      return sql;
    }
    List<int[]> skipped = literalsAndComments(sql, identifiers);
    StringBuilder out = new StringBuilder(sql.length() + 32);
    int at = 0;
    m.reset();
    while (m.find()) {
      int start = m.start();
      if (skipped.stream().anyMatch(s -> start >= s[0] && start < s[1])) {
        continue;
      }
      out.append(sql, at, start);
      at = edit.applyAsInt(m, out);
    }
    return out.append(sql, at, sql.length()).toString();
  }

  /**
   * The ranges {@code [start, end)} of {@code sql}'s string literals and comments, and of its
   * quoted identifiers when {@code identifiers}: where a rewrite of the text must not look.
   */
  static List<int[]> literalsAndComments(String sql, boolean identifiers) {
    List<int[]> skipped = new ArrayList<>();
    for (int i = 0; i < sql.length(); ) {
      char c = sql.charAt(i);
      int end = -1;
      if (c == '\'') {
        end = quoted(sql, i, c);
      } else if (c == '"') {
        if (!identifiers) {
          i = quoted(sql, i, c);
          continue;
        }
        end = quoted(sql, i, c);
      } else if (sql.startsWith("--", i)) {
        int eol = sql.indexOf('\n', i);
        end = eol < 0 ? sql.length() : eol + 1;
      } else if (sql.startsWith("/*", i)) {
        int close = sql.indexOf("*/", i + 2);
        end = close < 0 ? sql.length() : close + 2;
      }
      if (end >= 0) {
        skipped.add(new int[] {i, end});
        i = end;
      } else {
        i++;
      }
    }
    return skipped;
  }

  static int quoted(String sql, int start, char quote) {
    int i = start + 1;
    while (i < sql.length()) {
      if (sql.charAt(i) == quote) {
        if (i + 1 < sql.length() && sql.charAt(i + 1) == quote) {
          i += 2;
          continue;
        }
        return i + 1;
      }
      i++;
    }
    return sql.length();
  }

  private static String hint(String comment) {
    StringBuilder out = new StringBuilder(comment.length() + 4);
    int depth = 0;
    int i = 0;
    while (i < comment.length()) {
      char c = comment.charAt(i);
      if (c == '(') {
        depth++;
      } else if (c == ')') {
        depth = Math.max(0, depth - 1);
      } else if (c == '\'' || c == '"') {
        int end = quoted(comment, i, c);
        out.append(comment, i, end);
        i = end;
        continue;
      } else if (Character.isWhitespace(c) && depth > 0) {
        int next = i;
        while (next < comment.length() && Character.isWhitespace(comment.charAt(next))) {
          next++;
        }
        char before = out.length() == 0 ? ' ' : out.charAt(out.length() - 1);
        char after = next < comment.length() ? comment.charAt(next) : ' ';
        if (namePart(before) && (Character.isLetter(after) || after == '_' || after == '"')) {
          out.append(", ");
          i = next;
          continue;
        }
      }
      out.append(c);
      i++;
    }
    return out.toString();
  }

  private static boolean namePart(char c) {
    return Character.isLetterOrDigit(c) || c == '_' || c == '$' || c == '"';
  }
}
