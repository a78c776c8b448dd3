package io.basaltdb.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The driver stands on the SQL layer's connection, schema and catalog, never on its planner
 * (rules, pushdown, executors), and on the engine's client API (its backups among it), never
 * its internals.
 */
class LayeringTest {
  private static final Pattern FORBIDDEN = Pattern.compile(
      "io\\.basaltdb\\.sql\\.(rel|pushdown|exec)\\b"
      + "|io\\.basaltdb\\.engine\\.(?!filter\\.|backup\\.|region\\.RegionStats\\b)[a-z]+\\.[A-Za-z]");

  @Test
  void theDriverUsesOnlyTheClientApisBelowIt() throws IOException {
    Path root = Path.of("src/main/java/io/basaltdb/jdbc");
    assertTrue(Files.isDirectory(root), "run from jdbc-driver: " + root.toAbsolutePath());
    List<String> violations = new ArrayList<>();
    int checked = 0;
    try (Stream<Path> files = Files.walk(root)) {
      for (Path f : (Iterable<Path>) files.filter(p -> p.toString().endsWith(".java"))::iterator) {
        checked++;
        Matcher m = FORBIDDEN.matcher(Files.readString(f));
        if (m.find()) {
          violations.add(root.relativize(f) + " names " + m.group());
        }
      }
    }
    assertTrue(checked > 5, "found the sources: " + checked);
    assertEquals(List.of(), violations);
  }
}
