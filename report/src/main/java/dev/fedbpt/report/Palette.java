package dev.fedbpt.report;

import dev.fedbpt.engine.method.Methods;
import java.awt.BasicStroke;
import java.awt.Color;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.knowm.xchart.style.markers.Marker;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The series styles of the per-round plots: a colour each, the same for a label in every plot of a report and in
 * every report, and never one colour twice in a plot; a plot with more series than colours draws the further ones
 * dotted, then dash-dotted, ..., so that no two series of a plot look alike.
 */
final class Palette {
    /**
     * Tableau 10 without its grey (which marks the zero-shot line), then darker and lighter colours unlike those: as
     * many colours as the registry has methods and some, so that every method has its own in every report.
     */
    static final List<Color> COLOURS = List.of(
            new Color(0x1f77b4), new Color(0xff7f0e), new Color(0x2ca02c), new Color(0xd62728), new Color(0x9467bd),
            new Color(0x8c564b), new Color(0xe377c2), new Color(0xbcbd22), new Color(0x17becf), new Color(0x393b79),
            new Color(0x637939), new Color(0x843c39), new Color(0x7b4173), new Color(0x000000), new Color(0xe7ba52),
            new Color(0x6baed6));
    /**
     * Line patterns, in the order a plot takes them once every colour is taken: solid, dotted, dash-dot, short dashes;
     * none like a baseline's long dashes.
     */
    static final List<float[]> PATTERNS = List.of(new float[0], new float[] {2f, 4f}, new float[] {10f, 4f, 2f, 4f},
            new float[] {4f, 4f});
    private static final Marker[] MARKERS = {SeriesMarkers.CIRCLE, SeriesMarkers.SQUARE, SeriesMarkers.DIAMOND,
            SeriesMarkers.TRIANGLE_UP, SeriesMarkers.TRIANGLE_DOWN};
    private static final float LINE_WIDTH = 2.2f;
    /** A baseline's level (a method without rounds): long dashes. */
    private static final float[] LEVEL_DASHES = {12f, 6f};

    private Palette() {}

    /** One series' look: {@code colour} indexes {@link #COLOURS}, {@code pattern} {@link #PATTERNS}. */
    record Style(int colour, int pattern) {
        Color color() {
            return COLOURS.get(colour);
        }

        /** The marker: varies with the colour, and again with the pattern, for plots read in grey. */
        Marker marker() {
            return MARKERS[(colour + pattern) % MARKERS.length];
        }

        /** The line of a series with rounds. */
        BasicStroke line() {
            float[] dashes = PATTERNS.get(pattern);
            return dashes.length == 0 ? new BasicStroke(LINE_WIDTH)
                    : new BasicStroke(LINE_WIDTH, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 10f, dashes, 0f);
        }

        /** The level of a series without rounds (its final accuracy): long dashes, or past the colours its pattern. */
        BasicStroke level() {
            float[] dashes = pattern == 0 ? LEVEL_DASHES : PATTERNS.get(pattern);
            return new BasicStroke(2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, dashes, 0f);
        }
    }

    /**
     * A label's preferred colour, the same in every plot of a report and in every report: a method alone keeps its
     * method's (in the registry's order, {@link Methods#names}: the first blue, the second orange, then green, red,
     * purple, ...), so the plots of a grid that is still filling in do not change colour as cells finish. Labels with
     * parameters (e.g. {@code fedbpt r_p=0.2}) take the colours after the methods', in the order of their labels.
     */
    static Map<String, Integer> colourIndices(List<Series> seriesList) {
        Map<String, Integer> indices = new HashMap<>();
        for (String method : Methods.names()) {
            indices.put(method, indices.size());
        }
        int next = indices.size();
        for (String label : seriesList.stream().map(Series::label).sorted().distinct().toList()) {
            if (!indices.containsKey(label)) {
                indices.put(label, next++);
            }
        }
        return indices;
    }

    /**
     * The styles of one plot's series, in order: each its label's colour, or the next one no series before it in the
     * plot has; once every colour is taken, the same with the next pattern. Two series of a plot share a style only
     * past {@code COLOURS × PATTERNS} series.
     */
    static List<Style> styles(List<Series> seriesList, Map<String, Integer> colourOfLabel) {
        List<Style> styles = new ArrayList<>();
        Set<Style> taken = new HashSet<>();
        int colours = COLOURS.size();
        for (Series series : seriesList) {
            int preferred = Math.floorMod(colourOfLabel.getOrDefault(series.label(), 0), colours);
            Style style = null;
            for (int n = 0; style == null && n < colours * PATTERNS.size(); n++) {
                Style candidate = new Style((preferred + n) % colours, n / colours);
                if (!taken.contains(candidate)) {
                    style = candidate;
                }
            }
            if (style == null) {
                style = new Style(preferred, 0);
            }
            taken.add(style);
            styles.add(style);
        }
        return styles;
    }
}
