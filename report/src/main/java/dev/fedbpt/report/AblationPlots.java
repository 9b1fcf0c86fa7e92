package dev.fedbpt.report;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * Draws one PNG per {@link Ablation} row: the final accuracy against the key's value, as the mean over seeds joined
 * by a line, every seed's own result as a point, and the zero-shot accuracy as a dotted line. Numeric values sit at
 * their value on the x axis; other values at equal steps ({@link CategoryAxis}).
 */
final class AblationPlots {
    private static final Color MEAN_COLOUR = new Color(0x1f77b4);
    private static final Color SEED_COLOUR = new Color(21, 83, 126, 110);

    private AblationPlots() {}

    static List<Plots.Plot> write(Grouping grouping, Path outDir, Path plotsDir, PlotFiles files) throws IOException {
        Files.createDirectories(plotsDir);
        String evaluated = Tables.evaluationSplit(grouping);
        List<Plots.Plot> plots = new ArrayList<>();
        for (Ablation ablation : Ablation.of(grouping)) {
            for (Ablation.Row row : ablation.rows()) {
                XYChart chart = chart(ablation, row, evaluated);
                if (chart == null) {
                    continue;
                }
                List<String> parts = new ArrayList<>(row.coordinates().subList(0, 3));
                ablation.named(row).values().forEach(parts::add);
                parts.addAll(List.of("by", ablation.name()));
                Path file = plotsDir.resolve(files.name(parts));
                plots.add(new Plots.Plot(row.coordinates().get(0), row.coordinates().get(1), chart.getTitle(),
                        outDir.relativize(Plots.save(chart, file)), chart.getHeight(), List.of()));
            }
        }
        return plots;
    }

    /**
     * The chart of one row, or null when none of its values has a finished run or its values are numbers that sit at
     * one x (1 and 1.0): XChart never finishes laying out the ticks of an axis that starts where it ends.
     */
    static XYChart chart(Ablation ablation, Ablation.Row row, String evaluated) {
        List<String> values = ablation.values().stream().filter(row.byValue()::containsKey).toList();
        List<Double> numbers = values.stream().map(Grouping::number).toList();
        boolean numeric = numbers.stream().allMatch(x -> x != null && Double.isFinite(x));
        List<Double> meanX = new ArrayList<>();
        List<Double> meanY = new ArrayList<>();
        List<Double> seedX = new ArrayList<>();
        List<Double> seedY = new ArrayList<>();
        List<Double> zeroShot = new ArrayList<>();
        for (int i = 0; i < values.size(); i++) {
            Series series = row.byValue().get(values.get(i));
            double x = numeric ? numbers.get(i) : i;
            Stats stats = series.finalAccuracy();
            if (stats.count() > 0) {
                meanX.add(x);
                meanY.add(stats.mean());
            }
            for (RunRecord run : series.finishedRuns()) {
                if (run.finalAccuracy() != null && Double.isFinite(run.finalAccuracy())) {
                    seedX.add(x);
                    seedY.add(run.finalAccuracy());
                }
            }
            series.runs().forEach(run -> zeroShot.add(run.zeroShotAccuracy()));
        }
        double low = numeric ? numbers.get(0) : 0;
        double high = numeric ? numbers.get(numbers.size() - 1) : values.size() - 1;
        if (meanX.isEmpty() || !(high > low)) {
            return null;
        }
        List<String> coordinates = row.coordinates();
        StringBuilder subject = new StringBuilder(coordinates.get(0) + ", " + coordinates.get(1) + " split, "
                + coordinates.get(2));
        ablation.named(row).forEach((key, value) -> subject.append(", ").append(Grouping.shortName(key)).append('=')
                .append(value));
        XYChart chart = new XYChartBuilder().width(Plots.WIDTH).height(Plots.HEIGHT)
                .title("Final " + evaluated + " accuracy by " + ablation.name() + " \u2014 " + subject)
                .xAxisTitle(ablation.name() + (ablation.name().equals(ablation.key()) ? "" : " (" + ablation.key() + ")"))
                .yAxisTitle("final " + evaluated + " accuracy").build();
        Plots.baseStyle(chart.getStyler());
        double pad = numeric ? (high - low) * 0.05 : 0;
        if (numeric) {
            chart.getStyler().setXAxisMin(low - pad);
            chart.getStyler().setXAxisMax(high + pad);
        } else {
            CategoryAxis.apply(chart, values, meanY.get(0));
        }

        Stats zeroShotStats = Stats.of(zeroShot);
        if (zeroShotStats.count() > 0) {
            Plots.horizontalSpan(chart, Plots.ZERO_SHOT_LABEL, zeroShotStats.mean(), low - pad, high + pad,
                    Plots.ZERO_SHOT_COLOUR, Plots.ZERO_SHOT_STROKE);
        }
        XYSeries seeds = chart.addSeries("each seed", seedX, seedY);
        seeds.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
        seeds.setMarker(SeriesMarkers.CIRCLE);
        seeds.setMarkerColor(SEED_COLOUR);
        XYSeries mean = chart.addSeries("mean over seeds", meanX, meanY);
        mean.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
        mean.setLineColor(MEAN_COLOUR);
        mean.setLineStyle(new BasicStroke(2.2f));
        mean.setMarker(SeriesMarkers.DIAMOND);
        mean.setMarkerColor(MEAN_COLOUR);
        List<Double> plotted = new ArrayList<>(seedY);
        if (zeroShotStats.count() > 0) {
            plotted.add(zeroShotStats.mean());
        }
        Stats range = Stats.of(plotted);
        chart.getStyler().setYAxisDecimalPattern(Plots.decimalPattern(range.min(), range.max()));
        Plots.padFlatYAxis(chart);
        Plots.fitTitle(chart);
        return chart;
    }
}
