package io.basaltdb.sql.parser;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basaltdb.sql.parser.impl.BasaltSqlParserImpl;
import java.util.List;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.ddl.SqlCreateSchema;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;
import org.junit.jupiter.api.Test;

/** Basalt's DDL parses into its nodes; queries still parse as Calcite's. */
class DdlParserTest {
  static SqlNode parse(String sql) throws SqlParseException {
    return SqlParser.create(sql, SqlParser.config()
        .withParserFactory(BasaltSqlParserImpl.FACTORY)).parseStmt();
  }

  @Test
  void phoenixStyleCreateTable() throws Exception {
    SqlCreateBasaltTable t = assertInstanceOf(SqlCreateBasaltTable.class, parse(
        "CREATE TABLE IF NOT EXISTS web.pages (id BIGINT NOT NULL PRIMARY KEY, "
            + "f.name VARCHAR(100), f.hits BIGINT, s.score DECIMAL(10, 2)) "
            + "VERSIONS=3, f.TTL=86400, COMPRESSION='LZ4', SALT_BUCKETS=4 SPLIT ON ('a', 'm')"));
    assertTrue(t.ifNotExists);
    assertEquals(List.of("WEB", "PAGES"), t.name.names);
    assertEquals(4, t.columns.size());
    assertTrue(t.columns.get(0).primaryKey);
    assertTrue(t.columns.get(0).notNull);
    assertEquals("F", t.columns.get(1).family());
    assertEquals("NAME", t.columns.get(1).column());
    assertEquals(4, t.options.size());
    assertEquals("TTL", t.options.get(1).option());
    assertEquals("F", t.options.get(1).family());
    assertEquals("LZ4", t.options.get(2).valueText());
    assertEquals(2, t.splitPoints.size());
  }

  @Test
  void compositeKeyConstraintWithDirections() throws Exception {
    SqlCreateBasaltTable t = assertInstanceOf(SqlCreateBasaltTable.class, parse(
        "CREATE TABLE clicks (host VARCHAR NOT NULL, ts TIMESTAMP NOT NULL, n INTEGER, "
            + "CONSTRAINT pk PRIMARY KEY (host, ts DESC))"));
    assertFalse(t.ifNotExists);
    assertEquals(List.of("HOST", "TS"), List.of(t.primaryKey.get(0).getSimple(),
        t.primaryKey.get(1).getSimple()));
    assertEquals(List.of(false, true), t.primaryKeyDescending);
    assertTrue(t.options.isEmpty());
  }

  @Test
  void schemasAndDropsAndQueries() throws Exception {
    assertInstanceOf(SqlCreateSchema.class, parse("CREATE SCHEMA IF NOT EXISTS web"));
    SqlDropBasaltTable drop = assertInstanceOf(SqlDropBasaltTable.class,
        parse("DROP TABLE IF EXISTS web.pages CASCADE"));
    assertTrue(drop.cascade && !drop.restrict);
    assertEquals(List.of("WEB", "PAGES"), drop.name.names);
    assertInstanceOf(SqlDropBasaltTable.Truncate.class, parse("TRUNCATE TABLE web.pages"));
    assertEquals("SELECT", parse("SELECT a FROM t WHERE b > 1").getKind().lowerName.toUpperCase());
  }

  @Test
  void badDdlIsAParseErrorWithAPosition() {
    SqlParseException e = assertThrows(SqlParseException.class,
        () -> parse("CREATE TABLE t (id BIGINT PRIMARY KEY,)"));
    assertTrue(e.getPos() != null && e.getPos().getLineNum() == 1, e.getMessage());
  }
}
