package io.basaltdb.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import sqlline.SqlLine;

/** sqlline with Basalt's driver, run non-interactively over a script (as {@code basalt sql -f}). */
class SqllineScriptTest {
  @TempDir
  Path dir;

  @Test
  void aScriptRunsAndPrintsItsResults() throws Exception {
    Path script = dir.resolve("tour.sql");
    Files.writeString(script, String.join("\n",
        "CREATE TABLE clicks (page VARCHAR NOT NULL, ts BIGINT NOT NULL, f.n BIGINT,",
        "  CONSTRAINT pk PRIMARY KEY (page, ts DESC));",
        "UPSERT INTO clicks VALUES ('home', 1, 3), ('home', 2, 5), ('about', 1, 1);",
        "SELECT page, SUM(n) AS total FROM clicks GROUP BY page ORDER BY page;",
        ""));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    SqlLine sqlline = new SqlLine();
    sqlline.setOutputStream(out);
    sqlline.setErrorStream(out);
    SqlLine.Status status = sqlline.begin(new String[] {
        "-d", BasaltDriver.class.getName(), "-u", "jdbc:basalt:" + dir.resolve("db"),
        "-n", "", "-p", "", "--maxWidth=120", "--outputformat=csv", "-f", script.toString()},
        null, false);
    String text = out.toString(StandardCharsets.UTF_8);
    assertEquals(SqlLine.Status.OK, status, text);
    assertTrue(text.contains("'PAGE','TOTAL'"), text);
    assertTrue(text.contains("'about','1'") && text.contains("'home','8'"), text);
    assertTrue(text.indexOf("'about','1'") < text.indexOf("'home','8'"), text);
  }
}
