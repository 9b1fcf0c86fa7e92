package dev.fedbpt.report;

import java.nio.file.Path;
import java.util.List;

/** The self-contained report.html: inline style, no scripts, plots referenced by relative path. */
final class Html {
    private static final String STYLE = """
            body { font-family: system-ui, -apple-system, "Segoe UI", "DejaVu Sans", sans-serif; margin: 2em auto;
                   max-width: 1000px; padding: 0 1em; color: #222; }
            h1 { margin-bottom: 0.2em; }
            h2 { border-bottom: 1px solid #ddd; padding-bottom: 0.2em; margin-top: 2em; }
            table { border-collapse: collapse; margin: 0.8em 0; font-size: 0.92em; }
            th, td { border: 1px solid #ccc; padding: 0.3em 0.6em; text-align: left; }
            th { background: #f3f3f3; }
            td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
            img { display: block; max-width: 100%; height: auto; margin: 0.8em 0 1.6em; border: 1px solid #eee; }
            .note { color: #666; font-size: 0.9em; }
            ol.legend { font-size: 0.85em; margin: -1.2em 0 1.6em; }
            code { background: #f5f5f5; padding: 0 0.2em; }
            """;

    private Html() {}

    static String page(List<Path> inputs, List<RunRecord> runs, Grouping grouping, List<Table> tables,
                       List<Plots.Plot> ablationPlots, List<Plots.Plot> plots, Path outDir) {
        StringBuilder html = new StringBuilder();
        html.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
                .append("<title>fedbpt report</title>\n<style>\n").append(STYLE).append("</style>\n</head>\n<body>\n");
        html.append("<h1>fedbpt report</h1>\n<p class=\"note\">")
                .append(runs.size()).append(" run folder(s), ").append(grouping.series().size())
                .append(" series, from ");
        for (int i = 0; i < inputs.size(); i++) {
            html.append(i > 0 ? ", " : "").append("<code>").append(escape(inputs.get(i).toString())).append("</code>");
        }
        html.append(".</p>\n");

        for (Table table : tables) {
            html.append("<h2>").append(escape(table.title())).append("</h2>\n").append(table.toHtml());
        }
        html.append("<p class=\"note\">").append(escape(Report.TABLE_NOTE)).append("</p>\n");
        String copies = Report.copiedRuns(runs);
        if (!copies.isEmpty()) {
            html.append("<p class=\"note\">").append(escape(copies)).append("</p>\n");
        }

        if (!ablationPlots.isEmpty()) {
            html.append("<h2>Ablations</h2>\n");
            ablationPlots.forEach(plot -> image(html, plot, plot.title()));
        }

        html.append("<h2>Plots</h2>\n");
        if (plots.isEmpty()) {
            html.append("<p class=\"note\">No run has per-round metrics yet.</p>\n");
        }
        String currentGroup = null;
        for (Plots.Plot plot : plots) {
            String group = plot.task() + ", " + plot.split() + " split";
            if (!group.equals(currentGroup)) {
                html.append("<h3>").append(escape(group)).append("</h3>\n");
                currentGroup = group;
            }
            image(html, plot, plot.title() + ", " + group);
        }

        html.append("<h2>Runs</h2>\n").append(runsTable(runs, outDir).toHtml());
        return html.append("</body>\n</html>\n").toString();
    }

    private static void image(StringBuilder html, Plots.Plot plot, String alt) {
        html.append("<img src=\"").append(escape(urlPath(plot.file()))).append("\" alt=\"").append(escape(alt))
                .append("\" width=\"").append(Plots.WIDTH).append("\" height=\"").append(plot.height()).append("\">\n");
        if (!plot.legendKey().isEmpty()) {
            // The legend cut its labels to the plot's width and numbered them: the numbers' full labels.
            html.append("<ol class=\"legend\">\n");
            plot.legendKey().forEach(label -> html.append("<li>").append(escape(label)).append("</li>\n"));
            html.append("</ol>\n");
        }
    }

    private static Table runsTable(List<RunRecord> runs, Path outDir) {
        List<List<String>> rows = runs.stream().map(run -> List.of(
                relative(outDir, run.directory()), run.method(), run.seed() == null ? "" : run.seed(),
                run.finished() ? "finished" : "unfinished",
                run.roundsCompleted() + (run.plannedRounds() == null ? "" : " / " + run.plannedRounds()),
                run.finalAccuracy() == null ? "n/a" : Tables.format(run.finalAccuracy()),
                run.zeroShotAccuracy() == null ? "n/a" : Tables.format(run.zeroShotAccuracy()))).toList();
        return new Table("Runs", List.of("folder", "method", "seed", "status", "rounds", "final accuracy",
                "zero-shot accuracy"), rows);
    }

    private static String relative(Path outDir, Path dir) {
        try {
            String relative = outDir.toAbsolutePath().normalize().relativize(dir.toAbsolutePath().normalize())
                    .toString();
            return relative.isEmpty() ? "." : relative;
        } catch (IllegalArgumentException e) {
            return dir.toAbsolutePath().toString();
        }
    }

    private static String urlPath(Path relative) {
        StringBuilder url = new StringBuilder();
        for (Path part : relative) {
            url.append(url.length() > 0 ? "/" : "").append(part);
        }
        return url.toString();
    }

    static String escape(String text) {
        StringBuilder out = new StringBuilder(text.length());
        for (char c : text.toCharArray()) {
            switch (c) {
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '&' -> out.append("&amp;");
                case '"' -> out.append("&quot;");
                default -> out.append(c);
            }
        }
        return out.toString();
    }
}
