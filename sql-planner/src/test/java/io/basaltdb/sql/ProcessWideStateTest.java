package io.basaltdb.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The SQL layer keeps no state for the process: what it keeps for a connection is the
 * connection's ({@link ConnectionRoot}), for an execution the execution's data context's, for
 * a database the storage's ({@code Storage.extension}, threads included, closed with it). A
 * static field holding mutable state (a map keyed by connections, a thread-local, a pool, a
 * counter, a volatile flag) is refused unless listed in {@link #ALLOWED} with its reason.
 */
class ProcessWideStateTest {
  private static final Pattern STATIC_STATE = Pattern.compile(
      "(?m)^\\s*(?:public |protected |private )?static (?:final )?(?:volatile \\w[\\w.<>, ]* \\w+"
      + "|(?:\\w+\\.)*(?:WeakHashMap|ThreadLocal|ExecutorService|Executor|Timer|AtomicLong"
      + "|AtomicInteger|AtomicBoolean|ConcurrentHashMap|ConcurrentMap|Map|Set|List)\\b"
      + "[\\w.<>, ?\\[\\]]* (\\w+))\\s*(?:=|;)");

  /** File (from sql-planner's main root) and field -> why it may be process-wide. */
  private static final Map<String, String> ALLOWED = Map.of(
      "rel/metadata/MetadataHandlers.java",
      "Calcite compiles its metadata handlers once per JVM; these say whether that is done",
      "prepare/CalciteInternals.java MISSING",
      "the reflective members this Calcite lacks, noted while the class initializes only",
      "index/IndexExpression.java COMPILED",
      "compiled functions of immutable (definition, text) keys, bounded: a cache, not state",
      "jdbc/StartUp.java STARTED",
      "whether the JVM's class warm-up began: class initialization is once per JVM too");

  @Test
  void noStaticFieldHoldsMutableState() throws Exception {
    Path root = Path.of("src/main/java/io/basaltdb/sql");
    List<String> found = new ArrayList<>();
    int checked = 0;
    try (Stream<Path> files = Files.walk(root)) {
      for (Path f : (Iterable<Path>) files.filter(p -> p.toString().endsWith(".java"))::iterator) {
        checked++;
        String file = root.relativize(f).toString().replace(java.io.File.separatorChar, '/');
        String text = Files.readString(f);
        Matcher m = STATIC_STATE.matcher(text);
        while (m.find()) {
          int end = text.indexOf(';', m.start());
          String declaration = text.substring(m.start(), end < 0 ? text.length() : end + 1)
              .trim().replaceAll("\\s+", " ");
          if (!isState(declaration)) {
            continue;
          }
          String name = m.group().trim().replaceAll("\\s*(=|;)$", "").replaceAll(".* ", "");
          if (!ALLOWED.containsKey(file) && !ALLOWED.containsKey(file + " " + name)) {
            found.add(file + " " + name + ": " + declaration);
          }
        }
      }
    }
    assertTrue(checked > 150, "found the sources: " + checked);
    assertEquals(List.of(), found);
  }

  /**
   * Whether a static field's whole declaration holds mutable state: a volatile field, or a
   * final one whose type or initializer is mutable (not an immutable constant such as
   * {@code List.of(...)} or a final reference to a stateless object).
   */
  static boolean isState(String declaration) {
    return declaration.contains(" volatile ") || !declaration.contains(" final ")
        || declaration.matches(".*(WeakHashMap|ThreadLocal|Executor[A-Z ]|Executors|Timer\\b"
            + "|Atomic|Concurrent|synchronized|new (java\\.util\\.)?(HashMap|ArrayList|HashSet"
            + "|TreeMap|LinkedHashMap)).*");
  }

  /** The pattern and the test itself see the kinds of state they are for. */
  @Test
  void thePatternSeesProcessWideState() {
    Map<String, Boolean> cases = new TreeMap<>(Map.of(
        "  private static final Map<CalciteSchema, Long> READ_AT =\n"
            + "      java.util.Collections.synchronizedMap(new java.util.WeakHashMap<>());", true,
        "  private static final ThreadLocal<Planned> PLANNING = new ThreadLocal<>();", true,
        "  static final AtomicLong MADE = new AtomicLong();", true,
        "  public static volatile boolean forceReflective;", true,
        "  private static final ExecutorService POOL = Executors.newFixedThreadPool(2);", true,
        "  private static final Map<String, Variable> VARIABLES = new HashMap<>();", true,
        "  private static final List<String> NAMES = List.of(\"A\");", false,
        "  static final String BATCH_WRITE = \"basaltBatchWrite\";", false,
        "  private static AtomicLong of(Storage db) {", false));
    cases.forEach((code, state) -> {
      Matcher m = STATIC_STATE.matcher(code);
      assertEquals(state, m.find() && isState(code.trim().replaceAll("\\s+", " ")), code);
    });
  }
}
