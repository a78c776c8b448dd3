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
 * memstore, read rules) never reach up into stores, regions or the database; and the storage
 * seam (engine/doc/storage-seam.md: the interfaces and values the SQL layer and the HBase
 * backend use) names nothing of the embedded implementation, so it can stand alone.
 */
class LayeringTest {
  private static final Pattern IMPORT =
      Pattern.compile("io\\.basaltdb\\.engine\\.(region|store|compaction|tool|Database)\\b");

  /** package -> the higher layers it must not name */
  private static final Map<String, Pattern> RULES = Map.of(
      "cell", IMPORT, "util", IMPORT, "file", IMPORT, "wal", IMPORT, "memstore", IMPORT,
      "manifest", IMPORT, "cache", IMPORT, "read", IMPORT,
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

  /** The seam's types in the root package (with {@code filter/}, checked whole). */
  private static final List<String> SEAM = List.of("Storage", "StorageTransaction", "Table",
      "Admin", "ReadSnapshot", "Put", "Delete", "Increment", "Append", "CheckAndMutate",
      "RowMutations", "RowChange", "Mutation", "Row", "Get", "Scan", "ReadRequest", "Result",
      "ResultScanner", "Cell", "CellType", "ScanMetrics", "ColumnAggregate", "TableName",
      "TableDescriptor", "FamilyOptions", "Splits", "RegionInfo", "RegionStats", "Durability",
      "Compression", "BloomType", "CompareOperator");

  /** What the seam must not name: the engine's packages and its implementation classes. */
  private static final Pattern IMPLEMENTATION = Pattern.compile(
      "io\\.basaltdb\\.engine\\.(region|store|read|file|wal|cell|cache|catalog|compaction|io"
          + "|manifest|memstore|util|tool)\\b|\\b(Database|LocalTable|LocalAdmin|Transaction"
          + "|OwnWrites|OwnWritesTransaction|ClientTransaction|PinnedSnapshot|RowWriteTable"
          + "|AtomicWrites|EngineOptions|RegionSplit|RegionChainScanner|BackgroundWork"
          + "|CatalogRecovery)\\b");

  @Test
  void theSeamNamesNothingOfTheEmbeddedEngine() throws IOException {
    Path root = Path.of("src/main/java/io/basaltdb/engine");
    List<Path> files = new ArrayList<>();
    for (String type : SEAM) {
      files.add(root.resolve(type + ".java"));
    }
    try (Stream<Path> filters = Files.list(root.resolve("filter"))) {
      filters.forEach(files::add);
    }
    List<String> violations = new ArrayList<>();
    for (Path f : files) {
      String code = withoutComments(Files.readString(f));
      Matcher m = IMPLEMENTATION.matcher(code);
      while (m.find()) {
        violations.add(root.relativize(f) + " names " + m.group());
      }
    }
    assertTrue(files.size() > 35, "found the seam: " + files.size());
    assertEquals(List.of(), violations);
  }

  private static String withoutComments(String java) {
    return java.replaceAll("(?s)/\\*.*?\\*/", "").replaceAll("//[^\\n]*", "");
  }
}
