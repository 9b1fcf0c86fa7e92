package dev.fedbpt.report;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.font.FontRenderContext;
import java.awt.font.TextLayout;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.XYStyler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * Draws one PNG per (task, split) and {@link Quantity}: a line per series at the mean over its seeds, with a shaded
 * band from the lowest to the highest seed where there are several. On the accuracy plot, series without rounds
 * (baselines) are dashed horizontal lines at their final accuracy, and a dotted grey line marks the zero-shot
 * accuracy (no prompt). Each series has a colour of its own in its plot ({@link Palette}), and the legend never takes
 * the plot's room ({@link Legend}).
 */
public final class Plots {
    public static final int WIDTH = 900;
    /** The height of a plot whose legend is beside it; a legend below the plot adds its own height. */
    public static final int HEIGHT = 500;
    static final Color ZERO_SHOT_COLOUR = new Color(0x555555);
    static final BasicStroke ZERO_SHOT_STROKE = new BasicStroke(1.6f, BasicStroke.CAP_ROUND, BasicStroke.JOIN_ROUND,
            10f, new float[] {2f, 4f}, 0f);
    static final String ZERO_SHOT_LABEL = "zero-shot (no prompt)";
    private static final int MAX_POINTS_WITH_MARKERS = 40;
    static final int SMALLEST_TITLE_POINTS = 10;
    /** About the width XChart gives the y axis, its title and tick labels, left of the plot. */
    static final int Y_AXIS_ALLOWANCE = 80;
    private static final FontRenderContext XCHARTS_CONTEXT = new FontRenderContext(null, true, false);

    static {
        if (System.getProperty("java.awt.headless") == null) {
            System.setProperty("java.awt.headless", "true");
        }
    }

    /**
     * One written plot; {@code file} is relative to the report folder, {@code height} its picture's height in pixels.
     *
     * @param legendKey each legend entry's full label, in the legend's order, where the legend had to cut some
     *                  (its entries are numbered); empty where it shows them whole
     */
    public record Plot(String task, String split, String title, Path file, int height, List<String> legendKey) {
        public Plot {
            legendKey = List.copyOf(legendKey);
        }
    }

    private Plots() {}

    /** Writes the plots of every task and split into {@code plotsDir}; quantities no series has are skipped. */
    static List<Plot> write(Grouping grouping, Path outDir, Path plotsDir, PlotFiles files) throws IOException {
        Files.createDirectories(plotsDir);
        List<Plot> plots = new ArrayList<>();
        Map<String, Integer> colourOfLabel = Palette.colourIndices(grouping.series());
        for (Map.Entry<List<String>, List<Series>> group : grouping.byTaskAndSplit().entrySet()) {
            String task = group.getKey().get(0);
            String split = group.getKey().get(1);
            for (Quantity quantity : Quantity.of(group.getValue().stream().flatMap(s -> s.runs().stream())
                    .toList())) {
                XYChart chart = chart(task, split, quantity, group.getValue(), colourOfLabel);
                if (chart == null) {
                    continue;
                }
                Path file = plotsDir.resolve(files.name(List.of(task, split, quantity.fileName())));
                plots.add(new Plot(task, split, quantity.title(), outDir.relativize(save(chart, file)),
                        chart.getHeight(), legendKey(chart)));
            }
        }
        return plots;
    }

    /** Writes {@code chart} as a PNG to {@code file}, and returns the file. */
    static Path save(XYChart chart, Path file) throws IOException {
        try (OutputStream out = Files.newOutputStream(file)) {
            BitmapEncoder.saveBitmap(chart, out, BitmapEncoder.BitmapFormat.PNG);
        }
        return file;
    }

    /** The full names of the legend's entries where it shows them cut (numbered), else nothing. */
    static List<String> legendKey(XYChart chart) {
        List<XYSeries> shown = chart.getSeriesMap().values().stream().filter(XYSeries::isShowInLegend).toList();
        boolean cut = shown.stream().anyMatch(series -> !series.getLabel().equals(series.getName()));
        return cut ? shown.stream().map(XYSeries::getName).toList() : List.of();
    }

    /** One line of a per-round plot: a series' values per round, or a baseline's level, and how it is drawn. */
    private record Line(String name, Palette.Style style, SortedMap<Integer, Stats> values, Double level) {}

    /** The chart of one quantity, or null when no series has a value for it in any round. */
    static XYChart chart(String task, String split, Quantity quantity, List<Series> seriesList,
                         Map<String, Integer> colourOfLabel) {
        List<Palette.Style> styles = Palette.styles(seriesList, colourOfLabel);
        int minRound = Integer.MAX_VALUE;
        int maxRound = Integer.MIN_VALUE;
        List<SortedMap<Integer, Stats>> perRound = new ArrayList<>();
        for (Series series : seriesList) {
            SortedMap<Integer, Stats> values = series.perRound(quantity);
            perRound.add(values);
            if (!values.isEmpty()) {
                minRound = Math.min(minRound, values.firstKey());
                maxRound = Math.max(maxRound, values.lastKey());
            }
        }
        if (minRound == Integer.MAX_VALUE) {
            return null;
        }
        // The legend's entries, known before the chart is built: a legend below the plot makes the picture taller.
        Set<String> names = new HashSet<>();
        List<Line> lines = new ArrayList<>();
        for (int i = 0; i < seriesList.size(); i++) {
            Series series = seriesList.get(i);
            SortedMap<Integer, Stats> values = perRound.get(i);
            if (!values.isEmpty()) {
                lines.add(new Line(unique(names, series.label()), styles.get(i), values, null));
            } else if (quantity.equals(Quantity.ACCURACY) && series.finalAccuracy().count() > 0) {
                lines.add(new Line(unique(names, series.label() + " (final)"), styles.get(i), values,
                        series.finalAccuracy().mean()));
            }
        }
        Stats zeroShot = zeroShot(quantity, seriesList);
        List<String> entries = new ArrayList<>(lines.stream().map(Line::name).toList());
        String zeroShotName = zeroShot.count() > 0 ? unique(names, ZERO_SHOT_LABEL) : null;
        if (zeroShotName != null) {
            entries.add(zeroShotName);
        }
        XYStyler probe = new XYStyler();
        baseStyle(probe);
        Legend legend = Legend.of(entries, probe, WIDTH, HEIGHT);

        XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT + legend.height())
                .title(quantity.title() + " \u2014 " + task + ", " + split + " split")
                .xAxisTitle(seriesList.stream().anyMatch(s -> s.seeds().size() > 1)
                        ? "round   (lines: mean over seeds; shaded: min\u2013max over seeds)" : "round")
                .yAxisTitle(quantity.axisLabel()).build();
        style(chart.getStyler(), minRound, maxRound);
        chart.getStyler().setLegendPosition(legend.position());
        chart.getStyler().setYAxisDecimalPattern(decimalPattern(perRound));

        // Bands first, so that every line is drawn over them.
        for (Line line : lines) {
            addBand(chart, line.name(), line.values(), line.style().color());
        }
        for (Line line : lines) {
            Palette.Style style = line.style();
            XYSeries drawn;
            if (line.level() == null) {
                double[] x = line.values().keySet().stream().mapToDouble(Integer::doubleValue).toArray();
                double[] y = line.values().values().stream().mapToDouble(Stats::mean).toArray();
                drawn = chart.addSeries(line.name(), x, y);
                drawn.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
                drawn.setLineColor(style.color());
                drawn.setLineStyle(style.line());
                drawn.setMarkerColor(style.color());
                drawn.setMarker(x.length <= MAX_POINTS_WITH_MARKERS ? style.marker() : SeriesMarkers.NONE);
            } else {
                drawn = horizontal(chart, line.name(), line.level(), minRound, maxRound, style.color(),
                        style.level());
            }
            drawn.setLabel(legend.labels().get(entries.indexOf(line.name())));
        }
        if (zeroShotName != null) {
            horizontal(chart, zeroShotName, zeroShot.mean(), minRound, maxRound, ZERO_SHOT_COLOUR, ZERO_SHOT_STROKE)
                    .setLabel(legend.labels().get(entries.size() - 1));
        }
        padFlatYAxis(chart);
        fitTitle(chart);
        return chart;
    }

    /** The zero-shot accuracy the accuracy plot marks, over the plot's runs; none when a series is zero-shot. */
    private static Stats zeroShot(Quantity quantity, List<Series> seriesList) {
        if (!quantity.equals(Quantity.ACCURACY) || seriesList.stream().anyMatch(s -> Grouping.promptFree(s.method()))) {
            return Stats.of(List.of());
        }
        List<Double> zeroShot = new ArrayList<>();
        for (Series series : seriesList) {
            series.runs().forEach(run -> zeroShot.add(run.zeroShotAccuracy()));
        }
        return Stats.of(zeroShot);
    }

    /** XChart draws a single tick when every value is the same; give such a chart some room above and below. */
    static void padFlatYAxis(XYChart chart) {
        double low = Double.POSITIVE_INFINITY;
        double high = Double.NEGATIVE_INFINITY;
        for (XYSeries series : chart.getSeriesMap().values()) {
            for (double y : series.getYData()) {
                low = Math.min(low, y);
                high = Math.max(high, y);
            }
        }
        if (low == high) {
            double pad = Math.max(Math.abs(low) * 0.05, 0.01);
            chart.getStyler().setYAxisMin(low - pad);
            chart.getStyler().setYAxisMax(high + pad);
        }
    }

    private static void style(XYStyler styler, int minRound, int maxRound) {
        baseStyle(styler);
        // Whole rounds on the x axis, and some room on both sides of a single round.
        double low = minRound == maxRound ? minRound - 1 : minRound;
        double high = minRound == maxRound ? maxRound + 1 : maxRound;
        styler.setXAxisMin(low);
        styler.setXAxisMax(high);
        styler.setxAxisTickLabelsFormattingFunction(value ->
                Math.abs(value - Math.rint(value)) < 1e-9 ? String.valueOf((long) Math.rint(value)) : "");
    }

    /** A text's width in pixels as XChart measures it when it checks that tick labels fit. */
    static double textWidth(String text, Font font) {
        if (text.isEmpty()) {
            return 0; // TextLayout refuses an empty string
        }
        return new TextLayout(text, font, XCHARTS_CONTEXT).getOutline(null).getBounds().getWidth();
    }

    /**
     * Makes the title's font smaller, down to {@link #SMALLEST_TITLE_POINTS}, until the title fits: XChart centres a
     * title over the plot, not the chart, and cuts off both ends of one wider than twice the room on the plot's
     * narrower side. Call it once the series are added (a legend beside the plot moves the plot's centre).
     */
    static void fitTitle(XYChart chart) {
        XYStyler styler = chart.getStyler();
        double plotLeft = styler.getChartPadding() + Y_AXIS_ALLOWANCE;
        double plotRight = chart.getWidth() - styler.getChartPadding();
        if (styler.getLegendPosition() == Styler.LegendPosition.OutsideE) {
            double widest = chart.getSeriesMap().values().stream().filter(XYSeries::isShowInLegend)
                    .mapToDouble(series -> textWidth(series.getLabel(), styler.getLegendFont())).max().orElse(0);
            plotRight -= widest + styler.getLegendSeriesLineLength() + 3 * styler.getLegendPadding()
                    + styler.getChartPadding();
        }
        double centre = (plotLeft + plotRight) / 2;
        double room = 2 * Math.min(centre, chart.getWidth() - centre) - 2 * styler.getChartPadding();
        Font font = styler.getChartTitleFont();
        while (font.getSize() > SMALLEST_TITLE_POINTS && textWidth(chart.getTitle(), font) > room) {
            font = font.deriveFont((float) font.getSize() - 1);
        }
        styler.setChartTitleFont(font);
    }

    /** The look every plot of the report shares. */
    static void baseStyle(XYStyler styler) {
        styler.setChartBackgroundColor(Color.WHITE);
        styler.setPlotBackgroundColor(Color.WHITE);
        styler.setPlotBorderColor(new Color(0xbbbbbb));
        styler.setPlotGridLinesColor(new Color(0xe3e3e3));
        styler.setChartTitleBoxVisible(false);
        styler.setChartTitleFont(new Font(Font.SANS_SERIF, Font.BOLD, 16));
        styler.setAxisTitleFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));
        styler.setAxisTickLabelsFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        styler.setLegendFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        styler.setLegendPosition(Styler.LegendPosition.OutsideE);
        styler.setLegendLayout(Styler.LegendLayout.Vertical);
        styler.setLegendBorderColor(Color.WHITE);
        styler.setLegendSeriesLineLength(32);
        styler.setMarkerSize(7);
        styler.setAntiAlias(true);
        styler.setLocale(java.util.Locale.ROOT);
    }

    private static void addBand(XYChart chart, String name, SortedMap<Integer, Stats> values, Color colour) {
        boolean spread = values.values().stream().anyMatch(s -> s.count() > 1 && s.max() > s.min());
        if (!spread || values.size() < 2) {
            return;
        }
        int n = values.size();
        double[] x = new double[2 * n];
        double[] y = new double[2 * n];
        int i = 0;
        for (Map.Entry<Integer, Stats> entry : values.entrySet()) {
            x[i] = entry.getKey();
            y[i] = entry.getValue().max();
            x[2 * n - 1 - i] = entry.getKey();
            y[2 * n - 1 - i] = entry.getValue().min();
            i++;
        }
        XYSeries band = chart.addSeries(unique(chart, name + " (min\u2013max)"), x, y);
        band.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.PolygonArea);
        Color translucent = new Color(colour.getRed(), colour.getGreen(), colour.getBlue(), 45);
        band.setFillColor(translucent);
        band.setLineColor(translucent);
        band.setMarker(SeriesMarkers.NONE);
        band.setShowInLegend(false);
    }

    private static XYSeries horizontal(XYChart chart, String name, double level, int minRound, int maxRound,
                                       Color colour, BasicStroke stroke) {
        return horizontalSpan(chart, name, level, minRound == maxRound ? minRound - 1 : minRound,
                minRound == maxRound ? maxRound + 1 : maxRound, colour, stroke);
    }

    static XYSeries horizontalSpan(XYChart chart, String name, double level, double low, double high, Color colour,
                                   BasicStroke stroke) {
        XYSeries line = chart.addSeries(unique(chart, name), new double[] {low, high}, new double[] {level, level});
        line.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
        line.setLineColor(colour);
        line.setLineStyle(stroke);
        line.setMarker(SeriesMarkers.NONE);
        return line;
    }

    /** Tick labels with as many decimals as about eight ticks over the plotted values need, the same on every tick. */
    static String decimalPattern(List<SortedMap<Integer, Stats>> perRound) {
        double low = Double.POSITIVE_INFINITY;
        double high = Double.NEGATIVE_INFINITY;
        for (SortedMap<Integer, Stats> values : perRound) {
            for (Stats stats : values.values()) {
                low = Math.min(low, stats.min());
                high = Math.max(high, stats.max());
            }
        }
        return decimalPattern(low, high);
    }

    /** Tick labels with as many decimals as about eight ticks from {@code low} to {@code high} need. */
    static String decimalPattern(double low, double high) {
        double span = high - low;
        if (!(span > 0)) {
            span = Math.max(Math.abs(high), 1e-12);
        }
        int decimals = (int) Math.max(0, Math.min(8, Math.ceil(-Math.log10(span / 8))));
        return decimals == 0 ? "#,##0" : "#,##0." + "0".repeat(decimals);
    }

    /** XChart refuses two series of the same name. */
    private static String unique(XYChart chart, String name) {
        String unique = name;
        for (int i = 2; chart.getSeriesMap().containsKey(unique); i++) {
            unique = name + " #" + i;
        }
        return unique;
    }

    /** {@code name}, numbered when {@code taken} has it already; taken from then on. */
    private static String unique(Set<String> taken, String name) {
        String unique = name;
        for (int i = 2; !taken.add(unique); i++) {
            unique = name + " #" + i;
        }
        return unique;
    }
}
