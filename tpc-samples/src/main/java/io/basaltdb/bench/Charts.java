package io.basaltdb.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.VectorGraphicsEncoder;

/**
 * Writes a benchmark's ratios as an SVG bar chart (XChart), one bar per measure, with a line
 * at 1 where Basalt and the reference are even, so a person sees at a glance where Basalt
 * stands.
 */
public final class Charts {
  private Charts() {}

  /** The chart written next to a CSV result: {@code out.csv} -> {@code out.svg}. */
  public static Path besideCsv(Path csv) {
    String f = csv.toString();
    return Path.of((f.endsWith(".csv") ? f.substring(0, f.length() - 4) : f) + ".svg");
  }

  /**
   * @param ratios measure to ratio, in display order
   * @param meaning what a ratio means, e.g. "Basalt/H2 time: below 1 = Basalt faster"
   */
  public static void ratios(Path svg, String title, Map<String, Double> ratios, String meaning)
      throws IOException {
    System.setProperty("java.awt.headless", "true");
    CategoryChart chart = new CategoryChartBuilder().width(Math.max(640, 60 * ratios.size()))
        .height(480).title(title).xAxisTitle("").yAxisTitle(meaning).build();
    chart.getStyler().setLegendVisible(false);
    chart.getStyler().setXAxisLabelRotation(45);
    List<String> names = new ArrayList<>(ratios.keySet());
    List<Double> values = new ArrayList<>();
    for (String n : names) {
      values.add(ratios.get(n));
    }
    chart.addSeries("ratio", names, values);
    chart.addSeries("even", names, java.util.Collections.nCopies(names.size(), 1.0))
        .setChartCategorySeriesRenderStyle(
            org.knowm.xchart.CategorySeries.CategorySeriesRenderStyle.Line);
    String file = svg.toString();
    VectorGraphicsEncoder.saveVectorGraphic(chart,
        file.endsWith(".svg") ? file.substring(0, file.length() - 4) : file,
        VectorGraphicsEncoder.VectorGraphicsFormat.SVG);
  }
}
