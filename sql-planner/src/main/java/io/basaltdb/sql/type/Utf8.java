package io.basaltdb.sql.type;

import io.basaltdb.sql.SqlStates;
import io.basaltdb.sql.SqlStateException;
import java.nio.charset.StandardCharsets;

/**
 * Strict UTF-8 for stored strings. Java's encoder turns a lone UTF-16 surrogate into '?',
 * which made two different keys one row; here such a string is refused with SQLState 22021
 * (character not in repertoire), naming the position. Stateless.
 */
public final class Utf8 {
  private Utf8() {}

  /**
   * The UTF-8 bytes of {@code s}, or 22021 when it holds a lone surrogate; {@code where} names
   * the value in that error (asked only then: a message per value written cost a lot).
   */
  public static byte[] encode(String s, java.util.function.Supplier<String> where) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (Character.isSurrogate(c)) {
        if (Character.isHighSurrogate(c) && i + 1 < s.length()
            && Character.isLowSurrogate(s.charAt(i + 1))) {
          i++;
          continue;
        }
        throw new SqlStateException(SqlStates.CHARACTER_NOT_IN_REPERTOIRE,
            String.format("%s holds a lone UTF-16 surrogate"
            + " U+%04X at character %d: not a valid Unicode string", where.get(), (int) c, i + 1));
      }
    }
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
