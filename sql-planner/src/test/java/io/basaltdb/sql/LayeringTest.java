package io.basaltdb.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Keeps sql-planner's layers apart (sql-planner/doc/adapter.md): types and the catalog know
 * nothing of planning; what {@code exec/} runs is described by {@code pushdown/} specs, never by
 * {@code rel/} nodes; rel nodes see a table only as {@code rel.PlannedTable}, never the schema
 * classes of the root package that make them; the JDBC plumbing ({@code jdbc/}) is named by the driver only; and the
 * SQL layer reaches storage only through the seam ({@code io.basaltdb.storage}), never the
 * embedded engine.
 */
class LayeringTest {
  private static final String SQL = "io\\.basaltdb\\.sql\\.";

  /** package -> what it must not name */
  private static final Map<String, Pattern> RULES = Map.of(
      "type", Pattern.compile(SQL + "(catalog|pushdown|exec|rel|ddl|parser)\\b"),
      "catalog", Pattern.compile(SQL + "(pushdown|exec|rel|ddl|parser)\\b"),
      "pushdown", Pattern.compile(SQL + "(exec|rel|ddl|parser)\\b"),
      "exec", Pattern.compile(SQL + "(rel|ddl|parser)\\b"),
      // rel nodes know a table as rel.PlannedTable, not the schema's classes that make them
      "rel", Pattern.compile(SQL + "(?!SqlStateException\\b|Switches\\b)[A-Z][A-Za-z]*\\b"));

  /**
   * The embedded engine, which the SQL layer never names: it reaches storage through the seam
   * ({@code io.basaltdb.storage}, module storage-api; the engine is a test dependency only, so
   * the build refuses a use; this also catches a name in a comment or string left behind).
   */
  static final Pattern ENGINE = Pattern.compile("io\\.basaltdb\\.engine\\b");

  @Test
  void lowerLayersDoNotReachUp() throws IOException {
    Path root = Path.of("src/main/java/io/basaltdb/sql");
    assertTrue(Files.isDirectory(root), "run from sql-planner: " + root.toAbsolutePath());
    List<String> violations = new ArrayList<>();
    int checked = 0;
    for (var rule : RULES.entrySet()) {
      checked += check(root.resolve(rule.getKey()), rule.getValue(), root, violations);
    }
    assertTrue(checked > 20, "found the sources: " + checked);
    assertEquals(List.of(), violations);
  }

  /** The JDBC plumbing sits on top: only the driver names it, nothing in sql-planner. */
  @Test
  void onlyTheDriverNamesTheJdbcPlumbing() throws IOException {
    Path root = Path.of("src/main/java/io/basaltdb/sql");
    Pattern jdbc = Pattern.compile(SQL + "jdbc\\b");
    List<String> violations = new ArrayList<>();
    int checked = 0;
    try (Stream<Path> dirs = Files.list(root)) {
      for (Path d : (Iterable<Path>) dirs::iterator) {
        if (d.getFileName().toString().equals("jdbc")) {
          continue;
        }
        checked += Files.isDirectory(d) ? check(d, jdbc, root, violations) : 0;
        if (d.toString().endsWith(".java")) {
          checked++;
          if (jdbc.matcher(Files.readString(d)).find()) {
            violations.add(root.relativize(d) + " names the jdbc package");
          }
        }
      }
    }
    assertTrue(checked > 50, "found the sources: " + checked);
    assertEquals(List.of(), violations);
  }

  @Test
  void theSqlLayerNamesOnlyTheStorageSeam() throws IOException {
    Path root = Path.of("src/main/java/io/basaltdb/sql");
    List<String> violations = new ArrayList<>();
    assertTrue(check(root, ENGINE, root, violations) > 50, "found the sources");
    assertEquals(List.of(), violations);
  }

  /** Checks every Java file under {@code dir}; returns how many. */
  static int check(Path dir, Pattern forbidden, Path root, List<String> violations)
      throws IOException {
    int checked = 0;
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path f : (Iterable<Path>) files.filter(p -> p.toString().endsWith(".java"))::iterator) {
        checked++;
        Matcher m = forbidden.matcher(Files.readString(f));
        if (m.find()) {
          violations.add(root.relativize(f) + " names " + m.group());
        }
      }
    }
    return checked;
  }
}
