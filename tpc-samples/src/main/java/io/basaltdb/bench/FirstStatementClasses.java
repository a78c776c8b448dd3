package io.basaltdb.bench;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Makes the list of classes a fresh JVM's first Basalt statements load, which the driver loads
 * ahead of the connecting thread ({@code io.basaltdb.sql.jdbc.StartUp}): runs
 * a first connect, CREATE TABLE, INSERT and SELECT (as {@link AdhocBench}'s) in a child JVM
 * with the driver's jar, {@code -Xlog:class+load} and no preloading, and keeps, in load order, the classes
 * read from that jar or from the JDK's modules (not those the JDK's class-data archive
 * already holds, nor generated ones: lambdas, method handles' forms, the bench's own).
 *
 * <pre>
 * mvn -q install -DskipTests
 * java -cp "$(cat tpc-samples/target/classpath.txt):tpc-samples/target/classes" \
 *     io.basaltdb.bench.FirstStatementClasses [--jar JDBC_ALL_JAR] [--out LIST]
 * </pre>
 *
 * Run again when the first statements' path changes much: a stale list only loads classes
 * that are no longer needed, or misses new ones.
 */
public final class FirstStatementClasses {
  private static final Pattern LOADED =
      Pattern.compile("\\] (\\S+) source: (jrt:/\\S+|file:\\S+\\.jar)$");

  private FirstStatementClasses() {}

  /** Loaded by the child once connected: its line in the log ends the connect's classes. */
  static final class Connected {}

  public static void main(String[] args) throws Exception {
    if (args.length == 2 && args[0].equals("--child")) {
      child(args[1]);
      return;
    }
    Path jar = null;
    Path out = Path.of("sql-planner/src/main/resources/io/basaltdb/sql/jdbc/first-statement.classes");
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--jar" -> jar = Path.of(args[++i]);
        case "--out" -> out = Path.of(args[++i]);
        default -> throw new IllegalArgumentException("usage: FirstStatementClasses"
            + " [--jar JDBC_ALL_JAR] [--out LIST]; unknown " + args[i]);
      }
    }
    if (jar == null) {
      try (var files = Files.list(Path.of("jdbc-driver/target"))) {
        jar = files.filter(p -> p.getFileName().toString().matches("basalt-jdbc-.*-all\\.jar"))
            .findFirst().orElseThrow(() -> new IllegalStateException(
                "no jdbc-driver/target/basalt-jdbc-*-all.jar: run mvn install first, or --jar"));
      }
    }
    Path dir = Files.createTempDirectory("first-statement");
    Path log = dir.resolve("classes.log");
    String javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    String cp = jar + java.io.File.pathSeparator + Path.of(FirstStatementClasses.class
        .getProtectionDomain().getCodeSource().getLocation().toURI());
    Process p = new ProcessBuilder(javaBin, "-Xlog:class+load:file=" + log,
        "-D" + io.basaltdb.sql.Switches.PRELOAD.property() + "=false", "-cp", cp,
        FirstStatementClasses.class.getName(), "--child", "jdbc:basalt:" + dir.resolve("db"))
        .inheritIO().start();
    if (p.waitFor() != 0) {
      throw new IllegalStateException("the first statement failed in the child JVM");
    }
    List<String> names = classes(Files.readAllLines(log, StandardCharsets.UTF_8),
        jar.toAbsolutePath().toUri().getPath());
    EngineBench.deleteRecursively(dir); // the child's database and the log
    List<String> lines = new ArrayList<>();
    lines.add("# Classes a fresh JVM's first connect, CREATE TABLE, INSERT and SELECT load: those");
    lines.add("# the statements load, then those the connect loads (each in load order; while");
    lines.add("# the connecting thread loads the latter, io.basaltdb.sql.jdbc.StartUp loads the");
    lines.add("# former ahead of it). Made by");
    lines.add("# io.basaltdb.bench.FirstStatementClasses (tpc-samples); " + names.size()
        + " classes.");
    lines.addAll(names);
    Files.createDirectories(out.toAbsolutePath().getParent());
    Files.write(out, lines, StandardCharsets.UTF_8);
    System.out.println(names.size() + " classes written to " + out);
  }

  /**
   * In the child JVM: connect, then (the marker class loaded) create, insert, select.
   */
  private static void child(String url) throws Exception {
    try (java.sql.Connection c = java.sql.DriverManager.getConnection(url);
        java.sql.Statement st = c.createStatement()) {
      Class.forName(Connected.class.getName());
      AdhocBench.firstStatements(st);
    }
  }

  /**
   * The class names of a class-load log read from {@code jarPath} or the JDK's modules: those
   * loaded after the {@link Connected} marker, then those before it.
   */
  static List<String> classes(List<String> log, String jarPath) {
    Set<String> connect = new LinkedHashSet<>();
    Set<String> statements = new LinkedHashSet<>();
    Set<String> out = connect;
    for (String line : log) {
      if (line.contains(" " + Connected.class.getName() + " ")) {
        out = statements;
        continue;
      }
      Matcher m = LOADED.matcher(line);
      if (!m.find()) {
        continue;
      }
      String name = m.group(1);
      String source = m.group(2);
      boolean fromJar = source.startsWith("file:") && source.endsWith(jarPath);
      if ((fromJar || source.startsWith("jrt:/")) && !name.contains("$$")
          && !name.contains("/0x")) {
        out.add(name);
      }
    }
    List<String> ordered = new ArrayList<>(statements);
    ordered.addAll(connect);
    return ordered;
  }
}
