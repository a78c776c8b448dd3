package io.basaltdb.sql.parser;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.avatica.util.Quoting;

/**
 * A statement's text cut into tokens just far enough to see its literals, for plans shared
 * across literal values without parsing each statement (issue 11). Two texts with the same
 * {@link #key} differ only in the values of their plain literals: unsigned numbers (integer,
 * decimal, approximate; the key keeps which) and {@code '...'} strings (the key keeps whether
 * one ends in a space), so the parser sees the same token kinds in the same order and builds
 * the same tree around them. A run of whitespace and comments counts as one space (hints
 * {@code /*+ ...*}{@code /} are kept as written); everything else is kept as written, so
 * anything that could change a statement's meaning changes its key.
 *
 * <p>{@link #normalized} is the text with chosen literals replaced by {@code ?}, with the same
 * whitespace and comment rules, so statements differing in layout share one plan. A text with
 * a parameter of its own, or an unterminated string, quoted identifier or comment, has no
 * shape.
 */
public final class StatementShape {
  /** The kind of a plain literal, as written in the key. */
  public enum Kind {
    INTEGER('I'), DECIMAL('D'), APPROX('E'), STRING('S'), STRING_TRAILING_SPACE('T');

    final char mark;

    Kind(char mark) {
      this.mark = mark;
    }
  }

  /** A plain literal: its span in the text (end exclusive) and its kind. */
  public record Literal(int start, int end, Kind kind) {
    /** Its value: BigDecimal for exact numbers, Double for approximate ones, else String. */
    public Object value(String sql) {
      String text = sql.substring(start, end);
      return switch (kind) {
        case INTEGER, DECIMAL -> new BigDecimal(text);
        case APPROX -> Double.valueOf(text);
        default -> text.substring(1, text.length() - 1).replace("''", "'");
      };
    }
  }

  private final String sql;
  private final String key;
  private final List<Literal> literals;
  /** Spans of whitespace and comments, each written as one space in the key and layout. */
  private final List<int[]> gaps;

  private StatementShape(String sql, String key, List<Literal> literals, List<int[]> gaps) {
    this.sql = sql;
    this.key = key;
    this.literals = literals;
    this.gaps = gaps;
  }

  /** The key of the text's shape: its layout, literals replaced by their kind. */
  public String key() {
    return key;
  }

  public List<Literal> literals() {
    return literals;
  }

  /**
   * The shape of {@code sql}, identifiers quoted with {@code quoting}; null when it has a
   * {@code ?} outside strings, or an unterminated string, quoted identifier or comment.
   */
  public static StatementShape of(String sql, Quoting quoting) {
    char open = switch (quoting) {
      case BACK_TICK, BACK_TICK_BACKSLASH -> '`';
      case BRACKET -> '[';
      default -> '"';
    };
    char close = open == '[' ? ']' : open;
    StringBuilder key = new StringBuilder(sql.length());
    List<Literal> literals = new ArrayList<>();
    List<int[]> gaps = new ArrayList<>();
    int n = sql.length();
    int i = 0;
    while (i < n) {
      char c = sql.charAt(i);
      int start = i;
      if (Character.isWhitespace(c)) {
        while (i < n && Character.isWhitespace(sql.charAt(i))) {
          i++;
        }
        gap(gaps, key, start, i);
      } else if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
        while (i < n && sql.charAt(i) != '\n' && sql.charAt(i) != '\r') {
          i++;
        }
        gap(gaps, key, start, i);
      } else if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
        int endComment = sql.indexOf("*/", i + 2);
        if (endComment < 0) {
          return null;
        }
        i = endComment + 2;
        if (i - start > 4 && sql.charAt(start + 2) == '+') {
          key.append(sql, start, i); // a hint
        } else {
          gap(gaps, key, start, i);
        }
      } else if (c == '\'') {
        i = endOfQuoted(sql, i, '\'');
        if (i < 0) {
          return null;
        }
        boolean trailingSpace = i - start > 2 && sql.charAt(i - 2) == ' ';
        Kind kind = trailingSpace ? Kind.STRING_TRAILING_SPACE : Kind.STRING;
        literals.add(new Literal(start, i, kind));
        key.append('\u0000').append(kind.mark);
      } else if (c == open) {
        i = endOfQuoted(sql, i, close);
        if (i < 0) {
          return null;
        }
        key.append(sql, start, i);
      } else if (Character.isLetter(c) || c == '_' || c == '$') {
        while (i < n && (Character.isLetterOrDigit(sql.charAt(i)) || sql.charAt(i) == '_'
            || sql.charAt(i) == '$')) {
          i++;
        }
        if (i < n && (sql.charAt(i) == '\'' || sql.charAt(i) == '&')) {
          // a prefixed string (X'..', N'..', _charset'..', U&'..'): kept as written
          int q = sql.indexOf('\'', i);
          int end = q < 0 ? -1 : endOfQuoted(sql, q, '\'');
          if (end < 0) {
            return null;
          }
          i = end;
        }
        key.append(sql, start, i);
      } else if (isDigit(c) || c == '.' && i + 1 < n && isDigit(sql.charAt(i + 1))) {
        i = number(sql, i, literals, key);
      } else if (c == '?') {
        return null;
      } else {
        i++;
        key.append(c);
      }
    }
    return new StatementShape(sql, key.toString(), List.copyOf(literals), gaps);
  }

  /** Whitespace or a comment from start to end: one space, with any gap just before it. */
  private static void gap(List<int[]> gaps, StringBuilder key, int start, int end) {
    int[] last = gaps.isEmpty() ? null : gaps.get(gaps.size() - 1);
    if (last != null && last[1] == start) {
      last[1] = end;
    } else {
      gaps.add(new int[] {start, end});
      key.append(' ');
    }
  }

  /**
   * Where a sign written before literal {@code l} starts (with only whitespace and comments
   * between them), or -1 when the character before it is not {@code sign}.
   */
  public int signBefore(Literal l, char sign) {
    int p = l.start();
    for (int g = gaps.size() - 1; g >= 0; g--) {
      if (gaps.get(g)[1] == p) {
        p = gaps.get(g)[0];
        break;
      }
      if (gaps.get(g)[1] < p) {
        break;
      }
    }
    return p > 0 && sql.charAt(p - 1) == sign ? p - 1 : -1;
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  /** Scans a number at {@code i}, adds it as a literal unless glued to a name; its end. */
  private static int number(String sql, int i, List<Literal> literals, StringBuilder key) {
    int n = sql.length();
    int start = i;
    Kind kind = Kind.INTEGER;
    while (i < n && isDigit(sql.charAt(i))) {
      i++;
    }
    if (i < n && sql.charAt(i) == '.') {
      kind = Kind.DECIMAL;
      i++;
      while (i < n && isDigit(sql.charAt(i))) {
        i++;
      }
    }
    if (i < n && (sql.charAt(i) == 'e' || sql.charAt(i) == 'E')) {
      int j = i + 1;
      if (j < n && (sql.charAt(j) == '+' || sql.charAt(j) == '-')) {
        j++;
      }
      if (j < n && isDigit(sql.charAt(j))) {
        kind = Kind.APPROX;
        i = j;
        while (i < n && isDigit(sql.charAt(i))) {
          i++;
        }
      }
    }
    if (i < n && (Character.isLetterOrDigit(sql.charAt(i)) || sql.charAt(i) == '_'
        || sql.charAt(i) == '.')) {
      // glued to letters or a second point (123abc, 1.2.3): not a plain literal; kept as written
      while (i < n && (Character.isLetterOrDigit(sql.charAt(i)) || sql.charAt(i) == '_'
          || sql.charAt(i) == '.')) {
        i++;
      }
      key.append(sql, start, i);
      return i;
    }
    literals.add(new Literal(start, i, kind));
    key.append('\u0000').append(kind.mark);
    return i;
  }

  /** The end (exclusive) of the quoted text opening at {@code i}, doubled quotes escaped; -1. */
  private static int endOfQuoted(String sql, int i, char close) {
    int j = i + 1;
    while (true) {
      int q = sql.indexOf(close, j);
      if (q < 0) {
        return -1;
      }
      if (q + 1 < sql.length() && sql.charAt(q + 1) == close) {
        j = q + 2;
        continue;
      }
      return q + 1;
    }
  }

  /**
   * The text with the given spans replaced by {@code ?} (each span a literal's, possibly with
   * a sign before it; in text order, not overlapping), each run of whitespace and comments as
   * one space.
   */
  public String normalized(List<int[]> spans) {
    return normalized(spans, null);
  }

  /**
   * As {@link #normalized(List)}, span {@code i} replaced by {@code texts.get(i)} when that is
   * not null ({@code texts} null: every span by {@code ?}).
   */
  public String normalized(List<int[]> spans, List<String> texts) {
    StringBuilder b = new StringBuilder(sql.length());
    int at = 0;
    int g = 0;
    int s = 0;
    while (at < sql.length()) {
      int nextGap = g < gaps.size() ? gaps.get(g)[0] : Integer.MAX_VALUE;
      int nextSpan = s < spans.size() ? spans.get(s)[0] : Integer.MAX_VALUE;
      int next = Math.min(Math.min(nextGap, nextSpan), sql.length());
      b.append(sql, at, next);
      at = next;
      if (at == sql.length()) {
        break;
      }
      if (nextSpan <= nextGap) {
        String text = texts == null ? null : texts.get(s);
        b.append(text == null ? "?" : text);
        at = spans.get(s++)[1];
        while (g < gaps.size() && gaps.get(g)[0] < at) {
          g++; // gaps inside a span (a sign, whitespace, its literal)
        }
      } else {
        b.append(' ');
        at = gaps.get(g++)[1];
      }
    }
    return b.toString();
  }
}
