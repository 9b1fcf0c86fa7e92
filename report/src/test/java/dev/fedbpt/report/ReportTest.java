package dev.fedbpt.report;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.Color;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.knowm.xchart.style.Styler;
import org.junit.jupiter.api.io.TempDir;

class ReportTest {
    @TempDir
    Path dir;

    /** Three finished fedbpt seeds, one unfinished; one fedavg-bbt seed; all on sst2/iid. */
    private Path sweep() {
        Path runs = dir.resolve("runs");
        FakeRuns.run(runs.resolve("fedbpt/seed-1"), "sst2", "iid", "fedbpt", 1, 0.5, 6, 6, 0.70, true);
        FakeRuns.run(runs.resolve("fedbpt/seed-2"), "sst2", "iid", "fedbpt", 2, 0.5, 6, 6, 0.72, true);
        FakeRuns.run(runs.resolve("fedbpt/seed-3"), "sst2", "iid", "fedbpt", 3, 0.5, 6, 6, 0.77, true);
        FakeRuns.run(runs.resolve("fedbpt/seed-4"), "sst2", "iid", "fedbpt", 4, 0.5, 3, 6, 0.60, false);
        FakeRuns.run(runs.resolve("fedavg/seed-1"), "sst2", "iid", "fedavg-bbt", 1, 0.5, 6, 6, 0.65, true);
        return runs;
    }

    private static String row(String markdown, String method) {
        return markdown.lines().filter(line -> line.startsWith("| sst2 | iid | " + method + " |")).findFirst()
                .orElseThrow(() -> new AssertionError("no " + method + " row in\n" + markdown));
    }

    private static List<String> cells(String row) {
        return Arrays.stream(row.substring(1, row.length() - 1).split("\\|")).map(String::strip).toList();
    }

    @Test
    void markdownTableHasMeanAndSampleStdOverFinishedSeeds() throws IOException {
        Path runs = sweep();
        Report.Written written = Report.write(List.of(runs), runs);
        String markdown = Files.readString(written.markdown(), StandardCharsets.UTF_8);

        // fedbpt: 0.70, 0.72, 0.77 -> mean 0.73; deviations -0.03, -0.01, 0.04 -> sqrt(0.0026 / 2) = 0.03606.
        // The unfinished seed 4 counts as a seed but not in the accuracy.
        assertEquals(List.of("sst2", "iid", "fedbpt", "0.7300 ± 0.0361", "4 (1 unfinished)", "3–6", "0.6900"),
                cells(row(markdown, "fedbpt")));
        assertEquals(List.of("sst2", "iid", "fedavg-bbt", "0.6500 ± n/a", "1", "6", "0.6900"),
                cells(row(markdown, "fedavg-bbt")));
        assertTrue(markdown.contains("| task | split | method | final accuracy (mean ± std) | seeds | rounds |"
                + " zero-shot accuracy |"), markdown);
        // Baselines (fedavg-bbt) sort before fedbpt.
        assertTrue(markdown.indexOf("fedavg-bbt |") < markdown.indexOf("| fedbpt |"), markdown);
        assertEquals(5, written.runs());
        assertEquals(2, written.series());
        assertEquals(1, written.unfinished());
    }

    @Test
    void foldersOfOneSeedCountAsOneSeedAndGiveNoSpread() throws IOException {
        // One cell run in four sweeps (seed 1 each time), and a series whose seed 1 ran twice beside a seed 2.
        Path runs = dir.resolve("copies");
        for (String sweep : List.of("a", "b", "c", "d")) {
            FakeRuns.run(runs.resolve(sweep + "/fedbpt"), "sst2", "iid", "fedbpt", 1, 0.5, 4, 4, 0.70, true);
        }
        FakeRuns.run(runs.resolve("a/fedavg-1"), "sst2", "iid", "fedavg-bbt", 1, 0.5, 4, 4, 0.70, true);
        FakeRuns.run(runs.resolve("b/fedavg-1"), "sst2", "iid", "fedavg-bbt", 1, 0.5, 4, 4, 0.72, true);
        FakeRuns.run(runs.resolve("a/fedavg-2"), "sst2", "iid", "fedavg-bbt", 2, 0.5, 4, 4, 0.80, true);
        String markdown = Files.readString(Report.write(List.of(runs), runs).markdown(), StandardCharsets.UTF_8);

        assertEquals(List.of("sst2", "iid", "fedbpt", "0.7000 ± n/a", "1 (4 runs)", "4", "0.6900"),
                cells(row(markdown, "fedbpt")), "four copies of seed 1 are one seed, without a spread");
        // Seed 1 at its folders' mean 0.71, seed 2 at 0.80: 0.755 ± sqrt(2 * 0.045^2 / 1) = 0.0636.
        assertEquals(List.of("sst2", "iid", "fedavg-bbt", "0.7550 ± 0.0636", "2 (3 runs)", "4", "0.6900"),
                cells(row(markdown, "fedavg-bbt")));
        assertTrue(markdown.contains("folders that ran the same seed count as one seed"), markdown);

        Grouping grouping = Grouping.of(RunRecord.findAll(List.of(runs)));
        Series copies = grouping.series().stream().filter(s -> s.method().equals("fedbpt")).findFirst().orElseThrow();
        assertEquals(List.of("1"), copies.seeds());
        assertEquals(1, copies.perRound(Quantity.ACCURACY).get(4).count(), "one seed per round, not four");
        org.knowm.xchart.XYChart chart = Plots.chart("sst2", "iid", Quantity.ACCURACY, List.of(copies),
                Palette.colourIndices(List.of(copies)));
        assertEquals("round", chart.getXAxisTitle(), "no spread over seeds to shade");
        assertFalse(chart.getSeriesMap().keySet().stream().anyMatch(name -> name.contains("min\u2013max")));
    }

    @Test
    void aTaskFileIsNamedByItsNameNotItsPath() throws IOException {
        String shipped = new String(getClass().getClassLoader()
                .getResourceAsStream("dev/fedbpt/config/tasks/sst2.conf").readAllBytes(), StandardCharsets.UTF_8);
        // The run started in `dir`, with data.task relative to it; the report runs elsewhere.
        FakeRuns.write(dir.resolve("tasks/my-sentiment.conf"), shipped.replace("name = \"sst2\"",
                "name = \"movie-reviews\""));
        Path runs = dir.resolve("results/sweep");
        FakeRuns.run(runs.resolve("own"), "tasks/my-sentiment.conf", "iid", "fedbpt", 1, 0.5, 4, 4, 0.70, true);
        FakeRuns.run(runs.resolve("gone"), "/no/such/folder/old-task.conf", "iid", "fedbpt", 1, 0.5, 4, 4, 0.60, true);
        FakeRuns.run(runs.resolve("spelled"), "SST-2", "iid", "fedbpt", 1, 0.5, 4, 4, 0.65, true);
        Path out = dir.resolve("out");
        Report.Written written = Report.write(List.of(runs), out);

        assertEquals(List.of("movie-reviews", "old-task", "sst2"), Grouping.of(RunRecord.findAll(List.of(runs)))
                .series().stream().map(Series::task).toList());
        String markdown = Files.readString(written.markdown(), StandardCharsets.UTF_8);
        assertTrue(markdown.contains("| movie-reviews | iid | fedbpt | 0.7000 ± n/a |")
                && markdown.contains("| old-task | iid | fedbpt | 0.6000 ± n/a |"), markdown);
        Set<String> files = written.plots().stream().map(p -> p.getFileName().toString()).collect(Collectors.toSet());
        assertTrue(files.contains("movie-reviews_iid_accuracy.png") && files.contains("old-task_iid_accuracy.png"),
                files.toString());
        String html = Files.readString(written.html(), StandardCharsets.UTF_8);
        assertFalse(markdown.contains("tasks/my-sentiment") || html.contains("my-sentiment.conf"),
                "no task is named by its path");
    }

    @Test
    void plotsAreDecodablePngsOfTheRightSizeReferencedByTheHtml() throws IOException {
        Path runs = sweep();
        Path out = dir.resolve("report");
        Report.Written written = Report.write(List.of(runs), out);

        Set<String> names = written.plots().stream().map(p -> p.getFileName().toString()).collect(Collectors.toSet());
        assertEquals(Set.of("sst2_iid_accuracy.png", "sst2_iid_loss.png", "sst2_iid_sigma.png", "sst2_iid_bytes.png"),
                names);
        String html = Files.readString(out.resolve("report.html"), StandardCharsets.UTF_8);
        for (Path plot : written.plots()) {
            assertEquals(out.resolve("plots"), plot.getParent());
            BufferedImage image = ImageIO.read(plot.toFile());
            assertNotNull(image, plot + " does not decode");
            assertEquals(Plots.WIDTH, image.getWidth());
            assertEquals(Plots.HEIGHT, image.getHeight());
            assertTrue(html.contains("src=\"plots/" + plot.getFileName() + "\""), html);
        }
        // The same table as results.md, and nothing fetched from elsewhere.
        assertTrue(html.contains("<td class=\"num\">0.7300 ± 0.0361</td>"), html);
        assertFalse(html.contains("<script"), html);
        assertFalse(html.contains("http://") || html.contains("https://"), html);
        assertTrue(html.contains("unfinished"), html);
    }

    @Test
    void malformedMetricsLineNamesTheFileAndLine() {
        Path runs = sweep();
        Path metrics = runs.resolve("fedavg/seed-1/metrics.jsonl");
        FakeRuns.write(metrics, FakeRuns.metricsLine(1, 0.8, 1.0, null, 1, 2) + "\n"
                + "{\"round\":2,\"sigma\":0.9,\n");
        ReportInputException error = assertThrows(ReportInputException.class,
                () -> Report.write(List.of(runs), runs));
        assertEquals(metrics, error.file());
        assertEquals(2, error.line());
        assertTrue(error.getMessage().startsWith(metrics + ":2: not valid JSON"), error.getMessage());
    }

    @Test
    void metricsLineWithoutRoundOrWithTextForANumberIsRefused() {
        Path run = FakeRuns.run(dir.resolve("run"), "sst2", "iid", "fedbpt", 1, 0.5, 2, 2, 0.7, true);
        Path metrics = run.resolve("metrics.jsonl");
        FakeRuns.write(metrics, "\n{\"sigma\":1.0}\n");
        ReportInputException noRound = assertThrows(ReportInputException.class,
                () -> Report.write(List.of(run), run));
        assertTrue(noRound.getMessage().equals(metrics + ":2: no \"round\" field"), noRound.getMessage());

        FakeRuns.write(metrics, "{\"round\":1,\"sigma\":\"big\"}\n");
        ReportInputException text = assertThrows(ReportInputException.class, () -> Report.write(List.of(run), run));
        assertTrue(text.getMessage().startsWith(metrics + ":1: \"sigma\" must be a number"), text.getMessage());
    }

    @Test
    void perturbationRateSweepGetsItsOwnSeriesAndAnAblationTable() throws IOException {
        Path sweep = dir.resolve("sweep");
        FakeRuns.run(sweep.resolve("rp0.1-s1"), "sst2", "dirichlet", "fedbpt", 1, 0.1, 4, 4, 0.60, true);
        FakeRuns.run(sweep.resolve("rp0.1-s2"), "sst2", "dirichlet", "fedbpt", 2, 0.1, 4, 4, 0.64, true);
        FakeRuns.run(sweep.resolve("rp0.5-s1"), "sst2", "dirichlet", "fedbpt", 1, 0.5, 4, 4, 0.70, true);
        FakeRuns.run(sweep.resolve("rp0.5-s2"), "sst2", "dirichlet", "fedbpt", 2, 0.5, 4, 4, 0.74, true);
        Path baseline = sweep.resolve("zero-shot-s1");
        FakeRuns.write(baseline.resolve("config.conf"), FakeRuns.config("sst2", "dirichlet", "zero-shot", 1, 0.5, 0));
        FakeRuns.write(baseline.resolve("result.json"), "{\"method\":\"zero-shot\",\"final_accuracy\":0.69}\n");
        Path out = dir.resolve("out");
        Report.write(List.of(sweep), out);
        String markdown = Files.readString(out.resolve("results.md"), StandardCharsets.UTF_8);

        assertTrue(markdown.contains("| sst2 | dirichlet | zero-shot | n/a | 0.6900 ± n/a |"),
                "zero-shot does not read r_p: " + markdown);

        // 0.60, 0.64 -> 0.62 ± sqrt(2 * 0.02^2 / 1) = 0.0283; likewise 0.72 ± 0.0283.
        assertTrue(markdown.contains("| sst2 | dirichlet | fedbpt | 0.1 | 0.6200 ± 0.0283 | 2 | 4 | 0.6900 |"),
                markdown);
        assertTrue(markdown.contains("| sst2 | dirichlet | fedbpt | 0.5 | 0.7200 ± 0.0283 | 2 | 4 | 0.6900 |"),
                markdown);
        assertTrue(markdown.contains("## Final test accuracy by r_p (search.perturbation-rate)"), markdown);
        assertTrue(markdown.contains("| task | split | method | r_p = 0.1 | r_p = 0.5 |"), markdown);
        assertTrue(markdown.contains("| sst2 | dirichlet | fedbpt | 0.6200 ± 0.0283 (n=2) | 0.7200 ± 0.0283 (n=2) |"),
                markdown);
        String html = Files.readString(out.resolve("report.html"), StandardCharsets.UTF_8);
        assertTrue(html.contains("src=\"plots/sst2_dirichlet_accuracy.png\""), html);
        assertTrue(html.indexOf("<h2>Ablations</h2>") < html.indexOf("src=\"plots/sst2_dirichlet_fedbpt_by_r_p.png\""),
                html);
        BufferedImage ablation = ImageIO.read(out.resolve("plots/sst2_dirichlet_fedbpt_by_r_p.png").toFile());
        assertNotNull(ablation, "the r_p plot is a PNG");
        assertEquals(Plots.WIDTH, ablation.getWidth());
    }

    @Test
    void ablationPlotHasTheMeanAndEverySeedAtEachValue() throws IOException {
        Path sweep = dir.resolve("sweep");
        FakeRuns.run(sweep.resolve("rp0-s1"), "sst2", "dirichlet", "fedbpt", 1, 0.0, 4, 4, 0.58, true);
        FakeRuns.run(sweep.resolve("rp0-s2"), "sst2", "dirichlet", "fedbpt", 2, 0.0, 4, 4, 0.62, true);
        FakeRuns.run(sweep.resolve("rp0.4-s1"), "sst2", "dirichlet", "fedbpt", 1, 0.4, 4, 4, 0.70, true);
        FakeRuns.run(sweep.resolve("rp0.4-s2"), "sst2", "dirichlet", "fedbpt", 2, 0.4, 2, 4, 0.50, false);
        Ablation ablation = Ablation.of(Grouping.of(RunRecord.findAll(List.of(sweep)))).get(0);
        assertEquals("search.perturbation-rate", ablation.key());
        assertEquals(List.of("0", "0.4"), ablation.values());

        org.knowm.xchart.XYChart chart = AblationPlots.chart(ablation, ablation.rows().get(0), "test");
        double[] meanX = chart.getSeriesMap().get("mean over seeds").getXData();
        double[] meanY = chart.getSeriesMap().get("mean over seeds").getYData();
        assertArrayEquals(new double[] {0.0, 0.4}, meanX, 1e-12);
        assertArrayEquals(new double[] {0.60, 0.70}, meanY, 1e-9, "the unfinished seed is left out");
        assertArrayEquals(new double[] {0.58, 0.62, 0.70}, chart.getSeriesMap().get("each seed").getYData(), 1e-9);
        assertTrue(chart.getSeriesMap().containsKey(Plots.ZERO_SHOT_LABEL));
        assertEquals("Final test accuracy by r_p \u2014 sst2, dirichlet split, fedbpt", chart.getTitle());
    }

    @Test
    void anAblationOverNamedValuesLabelsEachValueOnItsAxis() throws IOException {
        Path sweep = dir.resolve("named");
        FakeRuns.run(sweep.resolve("average"), "sst2", "iid", "fedavg-bbt", 1, 0.5, 4, 4, 0.66, true);
        FakeRuns.setKey(sweep.resolve("average"), "search.fedavg-paths", "average");
        FakeRuns.run(sweep.resolve("reset"), "sst2", "iid", "fedavg-bbt", 1, 0.5, 4, 4, 0.64, true);
        FakeRuns.setKey(sweep.resolve("reset"), "search.fedavg-paths", "reset");
        Ablation ablation = Ablation.of(Grouping.of(RunRecord.findAll(List.of(sweep)))).get(0);

        org.knowm.xchart.XYChart chart = AblationPlots.chart(ablation, ablation.rows().get(0), "test");
        java.util.function.Function<Double, String> tickLabel = chart.getStyler().getxAxisTickLabelsFormattingFunction();
        assertEquals(List.of("average", "reset"), List.of(tickLabel.apply(chart.getStyler().getXAxisMin()),
                tickLabel.apply(chart.getStyler().getXAxisMax())), "the axis ends at the first and last value");
        assertEquals("", tickLabel.apply(0.5));
        BufferedImage image = org.knowm.xchart.BitmapEncoder.getBufferedImage(chart);
        assertEquals(Plots.WIDTH, image.getWidth());
    }

    @Test
    void anAblationOverLongNamesIsDrawnWithItsNamesCutToFit() throws IOException {
        // The DLS-EC sweep's held-out domains: four values of 31-56 characters. XChart's tick layout never finished.
        List<String> heldOut = List.of("[apparel, MR, baby, books]", "[camera_photo, dvd, electronics, "
                + "health_personal_care]", "[imdb, kitchen_housewares, magazines, music]",
                "[software, sports_outdoors, toys_games, video]");
        Path sweep = dir.resolve("long-names");
        for (int i = 0; i < heldOut.size(); i++) {
            for (int seed = 1; seed <= 2; seed++) {
                Path run = FakeRuns.run(sweep.resolve("fold" + i + "-seed" + seed), "sst2", "iid", "fedbpt", seed, 0.5,
                        4, 4, 0.6 + 0.01 * i + 0.001 * seed, true);
                FakeRuns.setKey(run, "data.held-out", heldOut.get(i));
            }
        }
        Ablation ablation = Ablation.of(Grouping.of(RunRecord.findAll(List.of(sweep)))).get(0);
        org.knowm.xchart.XYChart chart = AblationPlots.chart(ablation, ablation.rows().get(0), "test");

        java.util.function.Function<Double, String> tickLabel = chart.getStyler().getxAxisTickLabelsFormattingFunction();
        List<String> labels = List.of(tickLabel.apply(0.0), tickLabel.apply(1.0), tickLabel.apply(2.0),
                tickLabel.apply(3.0));
        java.awt.Font font = chart.getStyler().getAxisTickLabelsFont();
        for (int i = 0; i < labels.size(); i++) {
            assertTrue(labels.get(i).endsWith("\u2026") && heldOut.get(i).startsWith(
                    labels.get(i).substring(0, labels.get(i).length() - 1)), labels.get(i));
            assertTrue(Plots.textWidth(labels.get(i), font) <= CategoryAxis.LABELS_WIDTH / 4.0, labels.get(i));
        }
        BufferedImage image = org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(
                java.time.Duration.ofMinutes(1), () -> org.knowm.xchart.BitmapEncoder.getBufferedImage(chart),
                "XChart's tick layout ends");
        assertEquals(Plots.WIDTH, image.getWidth());
    }

    @Test
    void aTitleWiderThanThePlotIsSetSmallerUntilItFits() {
        org.knowm.xchart.XYChart chart = new org.knowm.xchart.XYChartBuilder().width(Plots.WIDTH).height(Plots.HEIGHT)
                .title("Final test accuracy by held-out \u2014 fdu-mtl, domains split, dls-ec, alpha=0.2, "
                        + "download=compressed, phi=5").build();
        Plots.baseStyle(chart.getStyler());
        chart.addSeries("mean over seeds", new double[] {0, 1}, new double[] {0.6, 0.7});
        int before = chart.getStyler().getChartTitleFont().getSize();

        Plots.fitTitle(chart);
        java.awt.Font after = chart.getStyler().getChartTitleFont();
        assertTrue(after.getSize() < before && after.getSize() >= Plots.SMALLEST_TITLE_POINTS, after.toString());
        assertTrue(after.isBold(), "only the size changes");
        // Drawn, the title lies inside the picture: its first and last columns of pixels hold no title ink.
        BufferedImage image = org.knowm.xchart.BitmapEncoder.getBufferedImage(chart);
        int titleRow = chart.getStyler().getChartPadding() + after.getSize() / 2 + 2;
        for (int x : new int[] {0, 1, image.getWidth() - 2, image.getWidth() - 1}) {
            for (int y = chart.getStyler().getChartPadding(); y < titleRow + after.getSize(); y++) {
                assertEquals(Color.WHITE.getRGB(), image.getRGB(x, y), "no title at the picture's edge, x " + x);
            }
        }
    }

    @Test
    void namesThatCuttingMakesAlikeAreNumbered() {
        java.awt.Font font = new java.awt.Font(java.awt.Font.SANS_SERIF, java.awt.Font.PLAIN, 12);
        String common = "a long common beginning that no label has room for, ";
        List<String> labels = CategoryAxis.labels(List.of(common + "one", common + "two", "short"), font);
        assertEquals(3, Set.copyOf(labels).size(), labels.toString());
        assertTrue(labels.get(0).startsWith("1: ") && labels.get(1).startsWith("2: ") && labels.get(2).startsWith("3: "),
                labels.toString());
        assertEquals(List.of("average", "reset"), CategoryAxis.labels(List.of("average", "reset"), font));
    }

    @Test
    void aMethodKeepsItsColourWhenOtherCellsFinish() throws IOException {
        Path early = dir.resolve("early");
        FakeRuns.run(early.resolve("a"), "sst2", "iid", "fedavg-bbt", 1, 0.5, 4, 4, 0.65, true);
        FakeRuns.run(early.resolve("b"), "sst2", "iid", "fedbpt", 1, 0.5, 4, 4, 0.70, true);
        Path later = dir.resolve("later"); // the same cells, and others that sort before them
        FakeRuns.run(later.resolve("a"), "sst2", "iid", "fedavg-bbt", 1, 0.5, 4, 4, 0.65, true);
        FakeRuns.run(later.resolve("b"), "sst2", "iid", "fedbpt", 1, 0.5, 4, 4, 0.70, true);
        FakeRuns.run(later.resolve("c"), "ag-news", "iid", "fedbpt", 1, 0.5, 2, 4, 0.60, false);
        FakeRuns.run(later.resolve("d"), "ag-news", "iid", "centralised-bbt", 1, 0.5, 4, 4, 0.61, true);
        FakeRuns.run(later.resolve("e"), "sst2", "iid", "centralised-bbt", 1, 0.5, 4, 4, 0.66, true);

        Map<String, Color> before = sst2IidLineColours(early);
        Map<String, Color> after = sst2IidLineColours(later);
        assertEquals(before.get("fedbpt"), after.get("fedbpt"));
        assertEquals(before.get("fedavg-bbt"), after.get("fedavg-bbt"));
        assertEquals(3, Set.copyOf(after.values()).size(), "three methods, three colours: " + after);
    }

    @Test
    void aLegendWhoseLabelsWouldSqueezeThePlotGoesBelowIt() {
        Path runs = dir.resolve("overrides");
        FakeRuns.run(runs.resolve("a"), "sst2", "iid", "fedbpt", 1, 0.5, 4, 4, 0.70, true);
        Path both = FakeRuns.run(runs.resolve("b"), "sst2", "iid", "fedbpt", 1, 0.5, 4, 4, 0.71, true);
        FakeRuns.setKey(both, "search.client-ranking", "ratio-fitness");
        FakeRuns.setKey(both, "search.perturbation-mask", "per-round");
        FakeRuns.run(runs.resolve("c"), "sst2", "iid", "fedavg-bbt", 1, 0.5, 4, 4, 0.65, true);

        Grouping grouping = Grouping.of(RunRecord.findAll(List.of(runs)));
        List<Series> all = grouping.byTaskAndSplit().get(List.of("sst2", "iid"));
        assertTrue(all.stream().anyMatch(s -> s.label().length() > Legend.LONGEST_LABEL_BESIDE), all::toString);
        assertEquals(Styler.LegendPosition.OutsideS, Plots.chart("sst2", "iid",
                Quantity.ACCURACY, all, Palette.colourIndices(all)).getStyler().getLegendPosition());
        List<Series> shortLabels = all.stream().filter(s -> s.method().equals("fedavg-bbt")).toList();
        assertEquals(Styler.LegendPosition.OutsideE, Plots.chart("sst2", "iid",
                Quantity.ACCURACY, shortLabels, Palette.colourIndices(shortLabels)).getStyler().getLegendPosition());
    }

    private static Map<String, Color> sst2IidLineColours(Path runs) {
        Grouping grouping = Grouping.of(RunRecord.findAll(List.of(runs)));
        List<Series> sst2Iid = grouping.byTaskAndSplit().get(List.of("sst2", "iid"));
        org.knowm.xchart.XYChart chart = Plots.chart("sst2", "iid", Quantity.ACCURACY, sst2Iid,
                Palette.colourIndices(grouping.series()));
        Map<String, Color> colours = new TreeMap<>();
        chart.getSeriesMap().forEach((label, series) -> colours.put(label, series.getLineColor()));
        colours.remove(Plots.ZERO_SHOT_LABEL);
        return colours;
    }

    @Test
    void baselineWithAFinalAccuracyOnlyIsReported() throws IOException {
        Path runs = sweep();
        Path baseline = runs.resolve("zero-shot/seed-1");
        FakeRuns.write(baseline.resolve("config.conf"), FakeRuns.config("sst2", "iid", "zero-shot", 1, 0.5, 0));
        FakeRuns.write(baseline.resolve("metrics.jsonl"), "");
        FakeRuns.write(baseline.resolve("result.json"), "{\"method\":\"zero-shot\",\"final_accuracy\":0.69}\n");
        Path centralised = runs.resolve("centralised/seed-1");
        FakeRuns.write(centralised.resolve("config.conf"), FakeRuns.config("sst2", "iid", "centralised-bbt", 1, 0.5, 0));
        FakeRuns.write(centralised.resolve("result.json"), "{\"final_accuracy\":0.8,\"zero_shot_accuracy\":0.69}");

        Report.Written written = Report.write(List.of(runs), runs);
        String markdown = Files.readString(written.markdown(), StandardCharsets.UTF_8);
        assertEquals(List.of("sst2", "iid", "zero-shot", "0.6900 ± n/a", "1", "0", "n/a"),
                cells(row(markdown, "zero-shot")));
        assertEquals(List.of("sst2", "iid", "centralised-bbt", "0.8000 ± n/a", "1", "0", "0.6900"),
                cells(row(markdown, "centralised-bbt")));
        assertTrue(markdown.indexOf("| zero-shot |") < markdown.indexOf("| centralised-bbt |"), markdown);
        assertEquals(4, written.plots().size());
        assertNotNull(ImageIO.read(runs.resolve("plots/sst2_iid_accuracy.png").toFile()));
    }

    @Test
    void runsCopiedFromTheirTwinsAreNamedUnderTheTable() throws IOException {
        Path runs = dir.resolve("grid");
        Path iid = runs.resolve("sst2-iid-zero-shot-seed1");
        FakeRuns.write(iid.resolve("config.conf"), FakeRuns.config("sst2", "iid", "zero-shot", 1, 0.5, 0));
        FakeRuns.write(iid.resolve("result.json"), "{\"method\":\"zero-shot\",\"final_accuracy\":0.69}\n");
        Path copy = runs.resolve("sst2-dirichlet-zero-shot-seed1");
        FakeRuns.write(copy.resolve("config.conf"), FakeRuns.config("sst2", "dirichlet", "zero-shot", 1, 0.5, 0));
        FakeRuns.write(copy.resolve("result.json"), "{\"method\":\"zero-shot\",\"final_accuracy\":0.69,"
                + "\"same_run_as\":\"sst2-iid-zero-shot-seed1\"}\n");

        Report.Written written = Report.write(List.of(runs), runs);
        String markdown = Files.readString(written.markdown(), StandardCharsets.UTF_8);
        assertTrue(markdown.contains("Copied, not recomputed") && markdown.contains(
                "sst2-dirichlet-zero-shot-seed1 (of sst2-iid-zero-shot-seed1)."), markdown);
        assertTrue(Files.readString(written.html(), StandardCharsets.UTF_8)
                .contains("sst2-dirichlet-zero-shot-seed1 (of sst2-iid-zero-shot-seed1)."));
        assertTrue(markdown.contains("| sst2 | dirichlet | zero-shot | 0.6900 ± n/a | 1 |"), markdown);
    }

    @Test
    void aRunFolderItselfIsAnInputAndMissingFoldersAreRefused() throws IOException {
        Path run = FakeRuns.run(dir.resolve("one"), "ag-news", "dirichlet", "fedbpt", 42, 0.5, 3, 12, 0.5, false);
        Report.Written written = Report.write(List.of(run), run);
        assertEquals(1, written.runs());
        String markdown = Files.readString(written.markdown(), StandardCharsets.UTF_8);
        assertTrue(markdown.contains("| ag-news | dirichlet | fedbpt | n/a (unfinished) | 1 (1 unfinished) | 3 | n/a |"),
                markdown);
        // The report's own folder holds no run, and a second report over the same folder finds the same run.
        assertEquals(1, Report.write(List.of(run), run).runs());

        Path missing = dir.resolve("nope");
        ReportInputException error = assertThrows(ReportInputException.class,
                () -> Report.write(List.of(missing), dir));
        assertTrue(error.getMessage().contains(missing.toString()) && error.getMessage().contains("no such folder"),
                error.getMessage());

        Path empty = Files.createDirectories(dir.resolve("empty"));
        ReportInputException none = assertThrows(ReportInputException.class, () -> Report.write(List.of(empty), empty));
        assertTrue(none.getMessage().contains("no run folders"), none.getMessage());
        try (Stream<Path> files = Files.list(empty)) {
            assertEquals(0, files.count(), "nothing is written when there is nothing to report");
        }
    }

    @Test
    void runFolderWithoutConfigIsRefusedByName() {
        Path run = dir.resolve("bare");
        FakeRuns.write(run.resolve("result.json"), "{\"final_accuracy\":0.7}");
        ReportInputException error = assertThrows(ReportInputException.class, () -> Report.write(List.of(run), run));
        assertTrue(error.getMessage().startsWith(run.resolve("config.conf") + ": missing"), error.getMessage());
    }

    @Test
    void tablesNameTheSplitTheAccuraciesWereMeasuredOn() throws IOException {
        Path runs = dir.resolve("dev-study");
        Path run = runs.resolve("fedbpt-prompt5");
        FakeRuns.run(run, "sst2", "iid", "fedbpt", 1, 0.5, 4, 4, 0.74, true);
        Path config = run.resolve(RunRecord.CONFIG_FILE);
        Files.writeString(config, Files.readString(config).replace("shots-per-class = 16",
                "shots-per-class = 16\n        eval-split = \"dev\""));
        String markdown = Files.readString(Report.write(List.of(runs), runs).markdown(), StandardCharsets.UTF_8);
        assertTrue(markdown.contains("## Final dev accuracy"), markdown);
        String test = Files.readString(Report.write(List.of(sweep()), dir.resolve("out")).markdown(),
                StandardCharsets.UTF_8);
        assertTrue(test.contains("## Final test accuracy"), test);
    }
}
