package io.basaltdb.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Keeps sql-planner's floors apart (sql-planner/doc/adapter.md): every package sits on one
 * floor of {@link #FLOORS}, and a file names (by import, static import or fully qualified name,
 * in code or comment) only packages of its own floor or below. So the column types and the
 * catalog know nothing of planning; what {@code exec} runs is described by {@code pushdown}
 * specs, never by plan nodes; plan nodes know a table as {@code rel.PlannedTable}, never the
 * {@code schema} classes that make them; statement preparation sits above all it routes to;
 * and the JDBC plumbing ({@code jdbc}) is named by the driver only. A new package must be given
 * its floor here. The SQL layer reaches storage only through the seam
 * ({@code io.basaltdb.storage}), never the embedded engine.
 */
class LayeringTest {
  /**
   * The floors, bottom first; a sub-package not listed is on its parent's floor. The parser and
   * the parser generated from its grammar ({@code parser.impl}) share a floor: the generated
   * code builds the parser's nodes, and the parser's helpers call the generated parser.
   */
  static final List<List<String>> FLOORS = List.of(
      List.of(""), // the root: connection properties, switches, SQLStates, per-database figures
      List.of("type"),
      List.of("parser"),
      List.of("catalog"),
      List.of("pushdown"),
      List.of("exec.context"), // what a statement runs with: settings, snapshot, budget, pool
      List.of("index"),
      List.of("exec.read"), // scans, lookups, aggregates
      List.of("exec.write"), // row writes (reading what they need)
      List.of("exec"), // the door from plans to executors (TableRuns), transactions, functions
      List.of("constraint"),
      List.of("rel"), // the Basalt convention's nodes, and what runs them without codegen
      List.of("rel.metadata"), // cardinality and uniqueness the planner asks of them
      List.of("rel.rules"), // the rules that make them (nodes get them from the planner)
      List.of("schema"),
      List.of("ddl"),
      List.of("prepare"),
      List.of("jdbc"));

  private static final Pattern NAMED =
      Pattern.compile("io\\.basaltdb\\.sql((?:\\.[a-z]\\w*)*)\\.([A-Z]\\w*)");

  /**
   * The embedded engine, which the SQL layer never names: it reaches storage through the seam
   * ({@code io.basaltdb.storage}, module storage-api; the engine is a test dependency only, so
   * the build refuses a use; this also catches a name in a comment or string left behind).
   */
  static final Pattern ENGINE = Pattern.compile("io\\.basaltdb\\.engine\\b");

  private static final Path ROOT = Path.of("src/main/java/io/basaltdb/sql");

  /** The floor of a package given relative to {@code io.basaltdb.sql} ("" the root), or -1. */
  static int floor(String pkg) {
    for (String p = pkg; ; p = p.contains(".") ? p.substring(0, p.lastIndexOf('.')) : "") {
      for (int i = 0; i < FLOORS.size(); i++) {
        if (FLOORS.get(i).contains(p)) {
          return i;
        }
      }
      if (p.isEmpty()) {
        return -1;
      }
    }
  }

  private static String packageOf(Path file) {
    Path dir = ROOT.relativize(file.getParent());
    return dir.toString().replace(java.io.File.separatorChar, '.');
  }

  private static List<Path> sources() throws IOException {
    assertTrue(Files.isDirectory(ROOT), "run from sql-planner: " + ROOT.toAbsolutePath());
    try (Stream<Path> files = Files.walk(ROOT)) {
      return files.filter(p -> p.toString().endsWith(".java")).sorted().toList();
    }
  }

  @Test
  void everyPackageHasAFloor() throws IOException {
    TreeSet<String> unplaced = new TreeSet<>();
    for (Path f : sources()) {
      String pkg = packageOf(f);
      if (floor(pkg) < 0 || (!pkg.isEmpty() && floor(pkg) == 0)) {
        unplaced.add(pkg);
      }
    }
    assertEquals(new TreeSet<>(), unplaced);
  }

  @Test
  void noFileNamesAHigherFloor() throws IOException {
    List<String> violations = new ArrayList<>();
    List<Path> files = sources();
    assertTrue(files.size() > 150, "found the sources: " + files.size());
    for (Path f : files) {
      String pkg = packageOf(f);
      int own = floor(pkg);
      Matcher m = NAMED.matcher(Files.readString(f));
      while (m.find()) {
        String named = m.group(1).isEmpty() ? "" : m.group(1).substring(1);
        if (floor(named) > own) {
          violations.add(ROOT.relativize(f) + " (" + (pkg.isEmpty() ? "root" : pkg)
              + ") names " + (named.isEmpty() ? "" : named + ".") + m.group(2));
        }
      }
    }
    assertEquals(List.of(), violations);
  }

  /** The rule itself: a lower floor naming a higher one is caught, in an import or inline. */
  @Test
  void theRuleCatchesImportsAndInlineNames() {
    Matcher imported = NAMED.matcher("import io.basaltdb.sql.rel.BasaltScan;");
    assertTrue(imported.find());
    assertTrue(floor(imported.group(1).substring(1)) > floor("exec"));
    Matcher inline = NAMED.matcher("x = io.basaltdb.sql.schema.BasaltSchema.database(r);");
    assertTrue(inline.find());
    assertEquals("schema", inline.group(1).substring(1));
    Matcher root = NAMED.matcher("throw new io.basaltdb.sql.SqlStateException(");
    assertTrue(root.find());
    assertEquals(0, floor(root.group(1)));
    assertEquals(floor("parser"), floor("parser.impl"));
  }

  @Test
  void theSqlLayerNamesOnlyTheStorageSeam() throws IOException {
    List<String> violations = new ArrayList<>();
    for (Path f : sources()) {
      Matcher m = ENGINE.matcher(Files.readString(f));
      if (m.find()) {
        violations.add(ROOT.relativize(f) + " names " + m.group());
      }
    }
    assertEquals(List.of(), violations);
  }
}
