package dev.fedbpt.report;

import java.awt.Font;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.lines.SeriesLines;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * An x axis of named values on an {@link XYChart}: value i sits at x = i and is labelled with its name, shortened to
 * its share of the axis.
 *
 * <p>XChart (3.8.8) has no category axis for XY charts; it lays out tick labels from a formatting function, widening
 * the tick step until every label is unique and fits. Between two values the function has no name to give, so the
 * labels are only unique when XChart takes the axis's values as its ticks, which it does when the x values of all
 * series, in the order the series were added, are equally spaced; and it still never stops when one label is wider
 * than the whole axis. So the axis is laid down by a hidden first series at 0, 1, ..., n - 1, and the names are cut to
 * fit side by side.
 */
final class CategoryAxis {
    /** Pixels the labels may take side by side: less than the plot's width with the legend beside it. */
    static final int LABELS_WIDTH = 450;
    private static final String ELLIPSIS = "\u2026";

    private CategoryAxis() {}

    /**
     * Lays the axis on {@code chart} before any other series: its ends at the first and last value, its labels, and
     * the hidden series at height {@code level} (a height within the plotted data, so that it moves no axis).
     */
    static void apply(XYChart chart, List<String> values, double level) {
        List<String> labels = labels(values, chart.getStyler().getAxisTickLabelsFont());
        double[] x = new double[values.size()];
        double[] y = new double[values.size()];
        for (int i = 0; i < x.length; i++) {
            x[i] = i;
            y[i] = level;
        }
        XYSeries axis = chart.addSeries(" axis", x, y);
        axis.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
        axis.setLineStyle(SeriesLines.NONE);
        axis.setMarker(SeriesMarkers.NONE);
        axis.setShowInLegend(false);
        chart.getStyler().setXAxisMin(0.0);
        chart.getStyler().setXAxisMax((double) values.size() - 1);
        chart.getStyler().setxAxisTickLabelsFormattingFunction(value -> {
            long index = Math.round(value);
            return Math.abs(value - index) < 1e-9 && index >= 0 && index < labels.size() ? labels.get((int) index) : "";
        });
    }

    /** The names, each cut (with an ellipsis) to {@link #LABELS_WIDTH} / n pixels; numbered if cutting made twins. */
    static List<String> labels(List<String> values, Font font) {
        double room = (double) LABELS_WIDTH / values.size();
        List<String> labels = new ArrayList<>();
        for (String value : values) {
            labels.add(fit(value, font, room));
        }
        if (new HashSet<>(labels).size() < labels.size()) {
            labels.clear();
            for (int i = 0; i < values.size(); i++) {
                String number = (i + 1) + ": ";
                labels.add(number + fit(values.get(i), font, room - Plots.textWidth(number, font)));
            }
        }
        return labels;
    }

    private static String fit(String value, Font font, double room) {
        if (Plots.textWidth(value, font) <= room) {
            return value;
        }
        int keep = value.length();
        while (keep > 0 && Plots.textWidth(value.substring(0, keep) + ELLIPSIS, font) > room) {
            keep--;
        }
        return value.substring(0, keep) + ELLIPSIS;
    }
}
