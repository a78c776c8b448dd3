package io.basaltdb.hbase;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The HBase driver jar ({@code target/basalt-hbase-<version>-all.jar}) alone in a child JVM:
 * sqlline from the jar, the driver and the HBase backend found through {@code META-INF/services},
 * SQL over the mini cluster of this JVM.
 */
class HBaseShadedJarIT {
  private static Path jar() throws IOException {
    try (Stream<Path> files = Files.list(Path.of("target"))) {
      return files.filter(p -> p.getFileName().toString().matches("basalt-hbase-.*-all\\.jar"))
          .findFirst().orElseThrow(() -> new AssertionError("no shaded jar in target/"))
          .toAbsolutePath();
    }
  }

  @Test
  void theJarAloneRunsSqlOverHBase() throws Exception {
    String url = SharedCluster.url("");
    Path script = Files.createTempFile("hbase-jar", ".sql");
    Files.writeString(script, "CREATE TABLE jarred (id INTEGER PRIMARY KEY, v VARCHAR);\n"
        + "UPSERT INTO jarred VALUES (1, 'one'), (2, 'two');\n"
        + "SELECT v FROM jarred WHERE id = 2;\n"
        + "DROP TABLE jarred;\n");
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process p = new ProcessBuilder(List.of(java, "-cp", jar().toString(), "sqlline.SqlLine",
        "-d", "io.basaltdb.jdbc.BasaltDriver", "-u", url, "-n", "", "-p", "",
        "--isolation=TRANSACTION_NONE", "--outputformat=csv", "-f", script.toString()))
        .redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(120, TimeUnit.SECONDS), "sqlline finished");
    Files.delete(script);
    assertEquals(0, p.exitValue(), out);
    assertTrue(out.contains("'two'") || out.contains("two"), out);
    assertTrue(!out.contains("Error"), out);
  }
}
