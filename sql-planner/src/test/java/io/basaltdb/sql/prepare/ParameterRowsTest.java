package io.basaltdb.sql.prepare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

/** The trailing rows of parameters of a multi-row VALUES, found from the text's end. */
class ParameterRowsTest {
  private static final String HEAD = "INSERT INTO m (id, s) VALUES (?, ?)";

  @Test
  void rowsAfterTheFirstAreFoundWithTheHeadsEnd() {
    ParameterRows.Tail t = ParameterRows.of(HEAD + ", (?, ?),\n( ? ,? )  ");
    assertEquals(new ParameterRows.Tail(2, 2, HEAD.length()), t);
  }

  @Test
  void theFirstRowIsNeverPartOfTheTail() {
    assertNull(ParameterRows.of(HEAD));
    assertNull(ParameterRows.of("INSERT INTO m VALUES(?)"));
  }

  @Test
  void theScanStopsAtARowThatIsNotAllParameters() {
    String head = HEAD + ", (1, 'a')";
    assertEquals(new ParameterRows.Tail(1, 2, head.length()), ParameterRows.of(head + ", (?, ?)"));
    assertNull(ParameterRows.of(HEAD + ", (?, 'x')"));
    assertNull(ParameterRows.of(HEAD + ", (?, ?) RETURNING id"));
  }

  @Test
  void rowsOfAnotherWidthEndTheTail() {
    String head = HEAD + ", (?, ?, ?)";
    assertEquals(new ParameterRows.Tail(1, 2, head.length()), ParameterRows.of(head + ", (?, ?)"));
  }

  @Test
  void aTextWithACommentInsideIsLeftToTheParser() {
    assertNull(ParameterRows.of(HEAD + " -- , (?, ?)\n, (?, ?)"));
    assertNull(ParameterRows.of(HEAD + " /* x */, (?, ?)"));
    assertNull(ParameterRows.of("/* a */ " + HEAD + " /* b */, (?, ?) /* c */"));
    assertNull(ParameterRows.of(HEAD + ", (?, ?) -- the end"));
    assertNull(ParameterRows.of(HEAD + " --, (?, ?)\n/* x */"));
  }

  @Test
  void aCommentThatBeginsOrEndsTheTextIsSkipped() {
    String lead = "/* Hibernate: insert Item -- with dashes */\n";
    assertEquals(new ParameterRows.Tail(2, 2, lead.length() + HEAD.length()),
        ParameterRows.of(lead + HEAD + ", (?, ?), (?, ?)"));
    assertEquals(new ParameterRows.Tail(1, 2, HEAD.length()),
        ParameterRows.of(HEAD + ", (?, ?) /* 17 */ "));
    assertEquals(new ParameterRows.Tail(1, 2, lead.length() + HEAD.length()),
        ParameterRows.of(lead + HEAD + ",(?,?)/**/"));
  }

  @Test
  void aCommentThatIsNotWholeOrIsAHintIsRefused() {
    assertNull(ParameterRows.of(HEAD + ", (?, ?) /* a */ (?, ?) */"), "ends at its first end");
    assertNull(ParameterRows.of(HEAD + ", (?, ?) /*+ hint */"));
    assertNull(ParameterRows.of("/*+ hint */ " + HEAD + ", (?, ?)"));
    assertNull(ParameterRows.of("/* never ends " + HEAD + ", (?, ?)"));
    assertNull(ParameterRows.of(HEAD + ", (?, ?) /*/"));
  }

  @Test
  void aStringRunningIntoTheRowsLeavesAnUnterminatedHead() {
    // the rows are inside a string only if it never ends: the head then fails to parse
    String text = "INSERT INTO m VALUES ('a, (?, ?)";
    ParameterRows.Tail t = ParameterRows.of(text);
    assertEquals("INSERT INTO m VALUES ('a", text.substring(0, t.headEnd()));
  }
}
