package io.basaltdb.sql.parser;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.avatica.util.Quoting;
import org.junit.jupiter.api.Test;

/** Statement shapes: which texts share a key, the literals they see, the normalized text. */
class StatementShapeTest {
  private static StatementShape shape(String sql) {
    return StatementShape.of(sql, Quoting.DOUBLE_QUOTE);
  }

  private static String key(String sql) {
    return shape(sql).key();
  }

  private static List<Object> values(String sql) {
    List<Object> out = new ArrayList<>();
    for (StatementShape.Literal l : shape(sql).literals()) {
      out.add(l.value(sql));
    }
    return out;
  }

  /** Every literal replaced by ?. */
  private static String all(String sql) {
    StatementShape s = shape(sql);
    List<int[]> spans = new ArrayList<>();
    for (StatementShape.Literal l : s.literals()) {
      spans.add(new int[] {l.start(), l.end()});
    }
    return s.normalized(spans);
  }

  @Test
  void valuesOfOneKindShareAKeyAndKindsDoNot() {
    assertEquals(key("SELECT v FROM t WHERE id = 5"), key("SELECT v FROM t WHERE id = 123456"));
    assertEquals(key("WHERE v = 'a'"), key("WHERE v = 'it''s -- /* ?'"));
    assertNotEquals(key("WHERE id = 5"), key("WHERE id = 5.0"));
    assertNotEquals(key("WHERE id = 5.0"), key("WHERE id = 5e0"));
    assertNotEquals(key("WHERE id = 5"), key("WHERE id = '5'"));
    assertNotEquals(key("WHERE v = 'a'"), key("WHERE v = 'a '"), "trailing space kept apart");
    assertNotEquals(key("WHERE id = 5"), key("WHERE id = -5"), "a sign is not a value");
    assertNotEquals(key("WHERE b = X'AB'"), key("WHERE b = X'CD'"), "prefixed strings kept");
    assertNotEquals(key("WHERE v = N'a'"), key("WHERE v = N'b'"));
    assertNotEquals(key("SELECT t1 FROM x"), key("SELECT t2 FROM x"), "names are not numbers");
    assertNotEquals(key("SELECT \"a1\" FROM x"), key("SELECT \"a2\" FROM x"));
    assertNotEquals(key("SELECT 123abc FROM x"), key("SELECT 124abc FROM x"));
    assertNotEquals(key("SELECT /*+ A */ 1"), key("SELECT /*+ B */ 1"), "hints kept");
  }

  @Test
  void layoutAndCommentsDoNotChangeTheKey() {
    String plain = "SELECT v FROM t WHERE id = 5";
    assertEquals(key(plain), key("SELECT v\n\tFROM t /* why */ WHERE -- the key\n id = 7"));
    assertEquals(key(plain), key("SELECT   v  FROM t WHERE id = 5"));
  }

  @Test
  void literalsAndTheirValues() {
    assertEquals(List.of(new BigDecimal("5"), new BigDecimal("1.50"), 2.5e3, "it's", ""),
        values("SELECT * FROM t WHERE a = 5 AND b = 1.50 AND c = 2.5e3 AND d = 'it''s' AND "
            + "e = ''"));
    assertEquals(List.of(new BigDecimal(".5")), values("SELECT * FROM t WHERE a = .5"));
    assertEquals(List.of(), values("SELECT \"5\", X'05', t5 FROM t"));
  }

  @Test
  void normalizedTextKeepsTokensApart() {
    assertEquals("SELECT a FROM t WHERE b = ? AND c <= ?",
        all("SELECT a\nFROM t -- x\nWHERE b = 1 AND c <= 'q'"));
    assertEquals("SELECT a FROM t", all("SELECT/* no space */a FROM t"));
    assertEquals("SELECT a FROM t WHERE b IN (?, ?)", all("SELECT a FROM t WHERE b IN (1, 2)"));
  }

  @Test
  void aSignBeforeALiteral() {
    String sql = "SELECT a FROM t WHERE b = - /* c */ 5 AND c = -6 AND d - 7 > 0";
    StatementShape s = shape(sql);
    List<StatementShape.Literal> ls = s.literals();
    assertEquals(sql.indexOf("- /*"), s.signBefore(ls.get(0), '-'));
    assertEquals(sql.indexOf("-6"), s.signBefore(ls.get(1), '-'));
    assertEquals(sql.indexOf("- 7"), s.signBefore(ls.get(2), '-'));
    assertEquals(-1, s.signBefore(ls.get(3), '-'));
    assertEquals("SELECT a FROM t WHERE b = ? AND c = ? AND d - 7 > 0", s.normalized(List.of(
        new int[] {s.signBefore(ls.get(0), '-'), ls.get(0).end()},
        new int[] {s.signBefore(ls.get(1), '-'), ls.get(1).end()})));
  }

  @Test
  void noShapeForParametersOrUnterminatedText() {
    assertNull(shape("SELECT a FROM t WHERE b = ?"));
    assertNull(shape("SELECT a FROM t WHERE b = 'open"));
    assertNull(shape("SELECT \"open FROM t"));
    assertNull(shape("SELECT a /* open FROM t"));
    assertEquals(List.of("a?"), values("SELECT \"x?\" FROM t WHERE b = 'a?'"));
    assertEquals(1, StatementShape.of("SELECT `a?` FROM t WHERE b = 1", Quoting.BACK_TICK)
        .literals().size());
  }
}
