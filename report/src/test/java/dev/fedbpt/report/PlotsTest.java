package dev.fedbpt.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;

/** The plots' file names, legends and series styles. */
class PlotsTest {
    @TempDir
    Path dir;

    @Test
    void filePartsHaveNoLeadingTrailingOrDoubleDashes() {
        assertEquals("apparel-MR-baby-books", PlotFiles.part("[apparel, MR, baby, books]"));
        assertEquals("a-b", PlotFiles.part("--a -- b--"));
        assertEquals("hidden", PlotFiles.part(".hidden"));
        assertEquals("x", PlotFiles.part("[]"));
        assertEquals("1.0E-4", PlotFiles.part("1.0E-4"));

        PlotFiles files = new PlotFiles();
        assertEquals("sst2_iid_accuracy.png", files.name(List.of("sst2", "iid", "accuracy")));
        assertEquals("sst2_iid_accuracy-2.png", files.name(List.of("sst2", "iid", "accuracy")), "never twice");
        String longName = files.name(List.of("sst2", "x".repeat(300)));
        assertTrue(longName.length() <= PlotFiles.MAX_NAME + ".png".length(), longName);
        assertFalse(longName.equals(new PlotFiles().name(List.of("sst2", "x".repeat(299)))), "cut names stay apart");
    }

    @Test
    void anAblationOverListValuesIsFiledByItsValuesWithoutStrayDashes() throws IOException {
        Path runs = dir.resolve("held-out");
        for (String domains : List.of("[apparel, MR]", "[books, dvd]")) {
            for (long seed = 1; seed <= 2; seed++) {
                Path run = FakeRuns.run(runs.resolve(PlotFiles.part(domains) + "-" + seed), "fdu-mtl", "domains",
                        "dls-ec", seed, 0.5, 4, 4, 0.6 + 0.01 * seed, true);
                FakeRuns.write(run.resolve("config.conf"), Files.readString(run.resolve("config.conf"))
                        + "fedbpt.data.held-out = " + domains + "\n");
            }
        }
        Report.Written written = Report.write(List.of(runs), dir.resolve("out"));
        List<String> names = written.plots().stream().map(p -> p.getFileName().toString()).toList();
        assertTrue(names.contains("fdu-mtl_domains_dls-ec_by_held-out.png"), names.toString());
        for (String name : names) {
            assertFalse(name.startsWith("-") || name.contains("--") || name.contains("_-") || name.contains("-_")
                    || name.contains("-.png"), name);
        }
    }

    @Test
    void aPlotWithMoreSeriesThanColoursGivesNoTwoSeriesOneLook() {
        List<Path> folders = new ArrayList<>();
        int count = Palette.COLOURS.size() + 4;
        for (int i = 1; i <= count; i++) {
            folders.add(FakeRuns.run(dir.resolve("runs/rp" + i), "sst2", "iid", "fedbpt", 1, i / 100.0, 4, 4,
                    0.6 + i / 1000.0, true));
        }
        Grouping grouping = Grouping.of(RunRecord.findAll(List.of(dir.resolve("runs"))));
        List<Series> all = grouping.byTaskAndSplit().get(List.of("sst2", "iid"));
        assertEquals(count, all.size());
        XYChart chart = Plots.chart("sst2", "iid", Quantity.ACCURACY, all, Palette.colourIndices(grouping.series()));

        List<XYSeries> lines = chart.getSeriesMap().values().stream().filter(XYSeries::isShowInLegend)
                .filter(series -> !series.getName().equals(Plots.ZERO_SHOT_LABEL)).toList();
        assertEquals(count, lines.size());
        Set<Color> firstColours = new HashSet<>();
        lines.subList(0, Palette.COLOURS.size()).forEach(line -> firstColours.add(line.getLineColor()));
        assertEquals(Palette.COLOURS.size(), firstColours.size(), "no colour twice while colours last");
        Set<List<Object>> looks = new HashSet<>();
        for (XYSeries line : lines) {
            BasicStroke stroke = line.getLineStyle();
            float[] dashes = stroke.getDashArray() == null ? new float[0] : stroke.getDashArray();
            List<Float> pattern = new ArrayList<>();
            for (float dash : dashes) {
                pattern.add(dash);
            }
            assertTrue(looks.add(List.of(line.getLineColor(), pattern)), "two series look alike: " + line.getName());
        }
    }

    @Test
    void aLegendTooLongToGoBesideThePlotGoesBelowOnATallerPicture() throws IOException {
        Path runs = dir.resolve("long");
        String longValue = "a-value-long-enough-that-every-label-needs-more-room-than-the-plot-is-wide-"
                + "so-the-legend-must-cut-it";
        for (int i = 0; i < 6; i++) {
            Path run = FakeRuns.run(runs.resolve("cell" + i), "sst2", "iid", "fedbpt", 1, 0.5, 4, 4, 0.6 + i / 100.0,
                    true);
            FakeRuns.setKey(run, "search.client-ranking", longValue + i);
        }
        Grouping grouping = Grouping.of(RunRecord.findAll(List.of(runs)));
        List<Series> all = grouping.byTaskAndSplit().get(List.of("sst2", "iid"));
        XYChart chart = Plots.chart("sst2", "iid", Quantity.ACCURACY, all, Palette.colourIndices(all));

        assertEquals(Styler.LegendPosition.OutsideS, chart.getStyler().getLegendPosition());
        List<String> shown = chart.getSeriesMap().values().stream().filter(XYSeries::isShowInLegend)
                .map(XYSeries::getLabel).toList();
        double height = Legend.height(shown, chart.getStyler());
        // XChart takes the legend's height from the plot's; the picture is that much taller, so the plot keeps it.
        assertEquals(Plots.HEIGHT + (int) Math.ceil(height), chart.getHeight());
        double room = Plots.WIDTH - Plots.Y_AXIS_ALLOWANCE - 2.0 * chart.getStyler().getChartPadding()
                - chart.getStyler().getLegendSeriesLineLength() - 3.0 * chart.getStyler().getLegendPadding();
        assertEquals(7, shown.size(), "six series and the zero-shot line");
        for (int i = 0; i < 6; i++) {
            String label = shown.get(i);
            assertTrue(label.startsWith((i + 1) + ": ") && label.endsWith("\u2026"), label);
            assertTrue(Plots.textWidth(label, chart.getStyler().getLegendFont()) <= room, label);
        }
        assertEquals(all.stream().map(Series::label).toList().subList(0, 6), Plots.legendKey(chart).subList(0, 6),
                "the full labels, in the legend's order");

        Report.Written written = Report.write(List.of(runs), dir.resolve("out"));
        Path accuracy = dir.resolve("out/plots/sst2_iid_accuracy.png");
        BufferedImage image = ImageIO.read(accuracy.toFile());
        assertEquals(chart.getHeight(), image.getHeight());
        String html = Files.readString(written.html(), StandardCharsets.UTF_8);
        assertTrue(html.contains("src=\"plots/sst2_iid_accuracy.png\" alt=\"Test accuracy, sst2, iid split\" width=\""
                + Plots.WIDTH + "\" height=\"" + image.getHeight() + "\">\n<ol class=\"legend\">"), html);
        assertTrue(html.contains("<li>" + all.get(0).label() + "</li>"), html);
    }

    @Test
    void aShortLegendStaysBesideThePlotWithItsLabelsWhole() {
        Path runs = dir.resolve("short");
        FakeRuns.run(runs.resolve("a"), "sst2", "iid", "fedbpt", 1, 0.5, 4, 4, 0.70, true);
        FakeRuns.run(runs.resolve("b"), "sst2", "iid", "fedavg-bbt", 1, 0.5, 4, 4, 0.65, true);
        Grouping grouping = Grouping.of(RunRecord.findAll(List.of(runs)));
        List<Series> all = grouping.byTaskAndSplit().get(List.of("sst2", "iid"));
        XYChart chart = Plots.chart("sst2", "iid", Quantity.ACCURACY, all, Palette.colourIndices(all));
        assertEquals(Styler.LegendPosition.OutsideE, chart.getStyler().getLegendPosition());
        assertEquals(Plots.HEIGHT, chart.getHeight());
        assertEquals(List.of(), Plots.legendKey(chart));
        assertEquals(Arrays.asList("fedavg-bbt", "fedbpt", Plots.ZERO_SHOT_LABEL), chart.getSeriesMap().values()
                .stream().filter(XYSeries::isShowInLegend).map(XYSeries::getLabel).toList());
    }
}
