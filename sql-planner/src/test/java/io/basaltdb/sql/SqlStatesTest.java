package io.basaltdb.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * SQLStates are named in one place: {@link SqlStates} holds each once, the table of
 * {@code jdbc-driver/doc/sqlstates.md} lists exactly those, and no other source of sql-planner or
 * jdbc-driver writes one as a string literal.
 */
class SqlStatesTest {
  private static Set<String> constants() throws IllegalAccessException {
    Set<String> states = new TreeSet<>();
    for (Field f : SqlStates.class.getFields()) {
      if (Modifier.isStatic(f.getModifiers()) && f.getType() == String.class) {
        assertTrue(states.add((String) f.get(null)), "state named twice: " + f.get(null));
      }
    }
    return states;
  }

  @Test
  void theDocListsEveryStateAndNothingElse() throws Exception {
    String doc = Files.readString(Path.of("../jdbc-driver/doc/sqlstates.md"));
    Set<String> documented = new TreeSet<>();
    Matcher m = Pattern.compile("(?m)^\\| `([0-9A-Z]{5})` \\|").matcher(doc);
    while (m.find()) {
      assertTrue(documented.add(m.group(1)), "documented twice: " + m.group(1));
    }
    assertEquals(constants(), documented);
  }

  @Test
  void noSourceWritesAStateAsALiteral() throws Exception {
    Set<String> states = constants();
    Pattern literal = Pattern.compile("\"([0-9A-Z]{5})\"");
    List<String> violations = new ArrayList<>();
    int checked = 0;
    for (String dir : List.of("src/main/java", "../jdbc-driver/src/main/java")) {
      try (Stream<Path> files = Files.walk(Path.of(dir))) {
        for (Path f : (Iterable<Path>) files.filter(p -> p.toString().endsWith(".java"))::iterator) {
          if (f.endsWith("SqlStates.java")) {
            continue;
          }
          checked++;
          Matcher m = literal.matcher(Files.readString(f));
          while (m.find()) {
            if (states.contains(m.group(1))) {
              violations.add(f + ": \"" + m.group(1) + "\"");
            }
          }
        }
      }
    }
    assertTrue(checked > 150, "found the sources: " + checked);
    assertEquals(List.of(), violations);
  }
}
