package io.basaltdb.sql.pushdown;

import java.util.function.Predicate;
import org.apache.calcite.runtime.SqlFunctions;

/**
 * A SQL {@code LIKE} pattern (no escape character) as a test of strings. Patterns whose only
 * wildcards are {@code %} at either end ({@code 'abc%'}, {@code '%BRASS'}, {@code '%green%'},
 * {@code 'x'}) are a prefix, suffix, substring or equality test, exactly what the pattern
 * means; any other goes through Calcite's own {@code LIKE} (a regular expression). TPC-H Q2
 * tested {@code p_type LIKE '%BRASS'} on all 200,000 parts by regular expression.
 */
public final class LikeMatcher {
  private LikeMatcher() {}

  /** The test of {@code pattern}. */
  public static Predicate<String> of(String pattern) {
    boolean leading = pattern.startsWith("%");
    int from = leading ? 1 : 0;
    boolean trailing = pattern.length() > from && pattern.endsWith("%");
    String core = pattern.substring(from, pattern.length() - (trailing ? 1 : 0));
    if (core.indexOf('%') >= 0 || core.indexOf('_') >= 0) {
      SqlFunctions.LikeFunction like = new SqlFunctions.LikeFunction();
      return s -> like.like(s, pattern);
    }
    if (leading && trailing) {
      return s -> s.contains(core);
    }
    if (leading) {
      return s -> s.endsWith(core);
    }
    if (trailing) {
      return s -> s.startsWith(core);
    }
    return core::equals;
  }
}
