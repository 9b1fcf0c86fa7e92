package dev.fedbpt.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Builds a report from run folders: {@code report.html}, {@code results.md} and {@code plots/*.png} (per-round
 * plots per task and split, and a final-accuracy plot per ablation row) in one folder.
 *
 * <pre>{@code
 * Report.Written written = Report.write(List.of(Path.of("runs/sweep")), Path.of("runs/sweep"));
 * }</pre>
 */
public final class Report {
    public static final String HTML_FILE = "report.html";
    public static final String MARKDOWN_FILE = "results.md";
    public static final String PLOTS_DIR = "plots";
    static final String TABLE_NOTE = "Final accuracy: mean ± sample standard deviation over the distinct seeds of"
            + " the finished runs (n/a with one seed); folders that ran the same seed count as one seed, at their mean."
            + " Seeds: distinct seeds, with the number of run folders when that is more. Unfinished runs appear in the"
            + " plots with the rounds they completed. Rounds: rounds completed. Zero-shot accuracy: the model without"
            + " a prompt.";

    /** What {@link #write} wrote, and from how many runs. */
    public record Written(Path html, Path markdown, List<Path> plots, int runs, int series, int unfinished) {}

    private Report() {}

    /**
     * Reads every run folder under {@code inputs} and writes the report into {@code outDir} (created if needed).
     *
     * @throws ReportInputException when an input is missing or a run file is malformed (names the file and line)
     * @throws UncheckedIOException when the report cannot be written
     */
    public static Written write(List<Path> inputs, Path outDir) {
        if (inputs.isEmpty()) {
            throw new IllegalArgumentException("no input folders");
        }
        List<RunRecord> runs = RunRecord.findAll(inputs);
        Grouping grouping = Grouping.of(runs);
        List<Table> tables = new ArrayList<>();
        tables.add(Tables.results(grouping));
        tables.addAll(Tables.ablations(grouping));
        try {
            Files.createDirectories(outDir);
            // One set of names for both kinds of plot: they share the plots folder.
            PlotFiles files = new PlotFiles();
            List<Plots.Plot> plots = Plots.write(grouping, outDir, outDir.resolve(PLOTS_DIR), files);
            List<Plots.Plot> ablationPlots = AblationPlots.write(grouping, outDir, outDir.resolve(PLOTS_DIR), files);
            Path markdown = outDir.resolve(MARKDOWN_FILE);
            Files.writeString(markdown, markdown(runs, grouping, tables), StandardCharsets.UTF_8);
            Path html = outDir.resolve(HTML_FILE);
            Files.writeString(html, Html.page(inputs, runs, grouping, tables, ablationPlots, plots, outDir),
                    StandardCharsets.UTF_8);
            int unfinished = (int) runs.stream().filter(run -> !run.finished()).count();
            return new Written(html, markdown, Stream.concat(ablationPlots.stream(), plots.stream())
                    .map(p -> outDir.resolve(p.file())).toList(),
                    runs.size(), grouping.series().size(), unfinished);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the report into " + outDir + ": " + e.getMessage(), e);
        }
    }

    static String markdown(List<RunRecord> runs, Grouping grouping, List<Table> tables) {
        StringBuilder md = new StringBuilder("# fedbpt results\n\n");
        long unfinished = runs.stream().filter(run -> !run.finished()).count();
        md.append(runs.size()).append(" run folder(s), ").append(grouping.series().size()).append(" series")
                .append(unfinished > 0 ? ", " + unfinished + " unfinished" : "").append(".\n");
        for (Table table : tables) {
            md.append("\n## ").append(table.title()).append("\n\n").append(table.toMarkdown());
        }
        md.append('\n').append(TABLE_NOTE).append('\n');
        String copies = copiedRuns(runs);
        return (copies.isEmpty() ? md : md.append('\n').append(copies).append('\n')).toString();
    }

    /** A sentence naming the folders that hold a copy of another cell's run, or "" when none does. */
    static String copiedRuns(List<RunRecord> runs) {
        List<String> copies = runs.stream().filter(run -> run.finished() && run.result().sameRunAs() != null)
                .map(run -> run.directory().getFileName() + " (of " + run.result().sameRunAs() + ")")
                .sorted().toList();
        return copies.isEmpty() ? "" : "Copied, not recomputed: their method does not read the setting in which they "
                + "differ from the cell that ran, so the run is the same: " + String.join(", ", copies) + ".";
    }
}
