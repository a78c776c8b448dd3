package io.basaltdb.sql.parser;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** A statement's first word, past blanks, and past comments for callers that parse the rest. */
class StatementHeadTest {
  @Test
  void blanksAreSkippedAndWordsMatchInAnyCase() {
    assertTrue(StatementHead.startsWith(" \n\tinsert into t", "SELECT", "INSERT"));
    assertFalse(StatementHead.startsWith("/* x */ INSERT INTO t", "INSERT"));
    assertFalse(StatementHead.startsWith("", "INSERT"));
  }

  @Test
  void leadingCommentsAreSkippedWhenAsked() {
    assertTrue(StatementHead.startsWithPastComments("/* Hibernate: insert */ INSERT", "INSERT"));
    assertTrue(StatementHead.startsWithPastComments(
        " -- a line\n/* a */\n--\nupsert INTO t", "INSERT", "UPSERT"));
    assertTrue(StatementHead.startsWithPastComments("/**/SELECT 1", "SELECT"));
    assertFalse(StatementHead.startsWithPastComments("/* INSERT */ DELETE FROM t", "INSERT"));
    assertFalse(StatementHead.startsWithPastComments("/* never ends INSERT", "INSERT"));
    assertFalse(StatementHead.startsWithPastComments("-- INSERT", "INSERT"));
  }
}
