package io.basaltdb.bench;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The benchmark chart is an SVG naming each measure. */
class ChartsTest {
  @TempDir
  Path dir;

  @Test
  void writesAnSvgBarChart() throws Exception {
    Map<String, Double> ratios = new LinkedHashMap<>();
    ratios.put("point lookup", 1.03);
    ratios.put("SUM(val)", 0.49);
    Path svg = dir.resolve("sql.svg");
    Charts.ratios(svg, "Basalt vs H2", ratios, "Basalt/H2 time");
    String text = Files.readString(svg);
    assertTrue(text.startsWith("<?xml") && text.contains("<svg"), text.substring(0, 100));
    assertTrue(Files.size(svg) > 1000, "a chart has content");
  }
}
