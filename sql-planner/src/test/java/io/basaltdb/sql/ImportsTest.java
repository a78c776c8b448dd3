package io.basaltdb.sql;

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
 * Every import in the project's sources is used (in code or in a comment's link), so the import
 * lists {@link LayeringTest} reads say what a file really names, and a move that left an import
 * behind is caught: the whole repository (every module's main and test sources) is read.
 */
class ImportsTest {
  private static final Pattern IMPORT =
      Pattern.compile("(?m)^import (?:static )?[\\w.]+\\.(\\w+);\\s*$");

  /** The names an import list brings that the file's text never uses. */
  static List<String> unused(String source) {
    String body = source.replaceAll("(?m)^import [^\\n]*\\n", "");
    List<String> out = new ArrayList<>();
    Matcher m = IMPORT.matcher(source);
    while (m.find()) {
      if (!Pattern.compile("\\b" + m.group(1) + "\\b").matcher(body).find()) {
        out.add(m.group(1));
      }
    }
    return out;
  }

  @Test
  void everyImportIsUsed() throws IOException {
    Path repo = Path.of("..");
    assertTrue(Files.isDirectory(repo.resolve("engine/src/main/java")),
        "run from a module of the repository: " + repo.toAbsolutePath());
    List<String> found = new ArrayList<>();
    int checked = 0;
    try (Stream<Path> files = Files.walk(repo)) {
      for (Path f : (Iterable<Path>) files.filter(p -> p.toString().endsWith(".java")
          && p.toString().contains("src") && !p.toString().contains("target")
          && !p.toString().contains(".git"))::iterator) {
        checked++;
        for (String name : unused(Files.readString(f))) {
          found.add(repo.relativize(f) + ": " + name);
        }
      }
    }
    assertTrue(checked > 500, "found the sources: " + checked);
    assertEquals(List.of(), found);
  }

  @Test
  void anUnusedImportIsSeen() {
    String source = "package p;\n\nimport java.util.List;\nimport java.util.Map;\n"
        + "import static java.util.Objects.requireNonNull;\n\n"
        + "/** Keeps a {@link Map}. */\nclass A { List<String> a = requireNonNull(null); }\n";
    assertEquals(List.of(), unused(source));
    assertEquals(List.of("Set"), unused(source.replace("java.util.Map;", "java.util.Set;")
        .replace("{@link Map}", "map")));
  }
}
