package io.basaltdb.engine;

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
 * Keeps the arrows of engine/doc/engine.md honest: the low-level packages (formats, log,
 * memstore, read rules) never reach up into stores, regions or the database. (The storage
 * seam is its own module, {@code storage-api}, with no dependency: the build keeps it from
 * naming the engine.)
 */
class LayeringTest {
  private static final Pattern IMPORT =
      Pattern.compile("io\\.basaltdb\\.engine\\.(region|store|compaction|tool|Database)\\b");

  /** package -> the higher layers it must not name */
  private static final Map<String, Pattern> RULES = Map.of(
      "cell", IMPORT, "util", IMPORT, "file", IMPORT, "wal", IMPORT, "memstore", IMPORT,
      "manifest", IMPORT, "cache", IMPORT, "read", IMPORT, "backup", IMPORT,
      "store", Pattern.compile("io\\.basaltdb\\.engine\\.(region|tool|Database)\\b"));

  @Test
  void lowerLayersDoNotReachUp() throws IOException {
    Path root = Path.of("src/main/java/io/basaltdb/engine");
    assertTrue(Files.isDirectory(root), "run from the engine module: " + root.toAbsolutePath());
    List<String> violations = new ArrayList<>();
    int checked = 0;
    for (var rule : RULES.entrySet()) {
      try (Stream<Path> files = Files.walk(root.resolve(rule.getKey()))) {
        for (Path f : (Iterable<Path>) files.filter(p -> p.toString().endsWith(".java"))::iterator) {
          checked++;
          Matcher m = rule.getValue().matcher(Files.readString(f));
          if (m.find()) {
            violations.add(root.relativize(f) + " names " + m.group());
          }
        }
      }
    }
    assertTrue(checked > 20, "found the sources: " + checked);
    assertEquals(List.of(), violations);
  }
}
