package dev.fedbpt.report;

import java.awt.Font;
import java.awt.font.FontRenderContext;
import java.awt.font.TextLayout;
import java.util.ArrayList;
import java.util.List;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.XYStyler;

/**
 * Where a per-round plot's legend goes and what it says, so that it never takes the plot's room. XChart (3.8.8) gives
 * a legend all the room its labels ask for, out of the plot's: beside the plot, long labels leave no plot; below it,
 * many labels leave none either. So a legend of short labels that fits the picture's height goes beside the plot;
 * any other goes below it, one entry a line, on a picture made taller by the legend's height ({@link #height}), and
 * labels too wide for the plot's width are cut, every entry then numbered so that the report can give each full
 * label under the picture.
 *
 * @param labels what the legend shows for each entry, in order
 * @param height the pixels the picture grows by: the legend's height below the plot, 0 beside it
 * @param cut    whether labels were cut (and numbered: "3: fedbpt ...")
 */
record Legend(Styler.LegendPosition position, List<String> labels, int height, boolean cut) {
    /** The longest label (characters) a legend beside the plot takes; with a longer one it goes below. */
    static final int LONGEST_LABEL_BESIDE = 40;
    /** About the height XChart gives the title and the x axis: what a legend beside the plot has less than that. */
    private static final int TITLE_AND_AXIS_ALLOWANCE = 70;
    private static final String ELLIPSIS = "\u2026";
    // XChart measures legend text with this context (Legend_.getSeriesTextBounds).
    private static final FontRenderContext XCHARTS_CONTEXT = new FontRenderContext(null, true, false);

    Legend {
        labels = List.copyOf(labels);
    }

    /**
     * The legend of {@code names} (the legend's entries, in order) on a plot {@code width} × {@code plotHeight} pixels
     * drawn with {@code styler} (its legend font, paddings, marker size and line length).
     */
    static Legend of(List<String> names, XYStyler styler, int width, int plotHeight) {
        boolean allShort = names.stream().allMatch(name -> name.length() <= LONGEST_LABEL_BESIDE);
        if (allShort && height(names, styler) <= plotHeight - TITLE_AND_AXIS_ALLOWANCE) {
            return new Legend(Styler.LegendPosition.OutsideE, names, 0, false);
        }
        // XChart centres a legend below the plot under the plot, not the picture: no wider than the plot, it stays in.
        double room = width - Plots.Y_AXIS_ALLOWANCE - 2.0 * styler.getChartPadding()
                - styler.getLegendSeriesLineLength() - 3.0 * styler.getLegendPadding();
        Font font = styler.getLegendFont();
        boolean cut = names.stream().anyMatch(name -> Plots.textWidth(name, font) > room);
        List<String> labels = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            String number = cut ? (i + 1) + ": " : "";
            labels.add(number + fit(names.get(i), font, room - Plots.textWidth(number, font)));
        }
        return new Legend(Styler.LegendPosition.OutsideS, labels, (int) Math.ceil(height(labels, styler)), cut);
    }

    /** The height of a vertical legend of {@code labels}, as XChart works it out (Legend_.getBoundsHintVertical). */
    static double height(List<String> labels, XYStyler styler) {
        double height = styler.getLegendPadding();
        for (String label : labels) {
            double text = label.isEmpty() ? 0 : new TextLayout(label, styler.getLegendFont(), XCHARTS_CONTEXT)
                    .getOutline(null).getBounds2D().getHeight();
            height += Math.max(text, styler.getMarkerSize()) + styler.getLegendPadding();
        }
        return height;
    }

    /** {@code text}, or as much of it as fits {@code room} pixels with an ellipsis. */
    private static String fit(String text, Font font, double room) {
        if (Plots.textWidth(text, font) <= room) {
            return text;
        }
        int keep = text.length();
        while (keep > 0 && Plots.textWidth(text.substring(0, keep) + ELLIPSIS, font) > room) {
            keep--;
        }
        return text.substring(0, keep).stripTrailing() + ELLIPSIS;
    }
}
