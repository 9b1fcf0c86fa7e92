package dev.fedbpt.report;

import dev.fedbpt.engine.data.TaskMetric;
import dev.fedbpt.engine.method.Methods;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;

/**
 * The report's tables: final accuracy per series (mean ± sample std over seeds of the finished runs) and, for each
 * varying hyper-parameter such as r_p, the same numbers with one column per value (an ablation table).
 */
public final class Tables {
    private Tables() {}

    /** One row per series: task, split, method, the varying parameters, accuracy, seeds, rounds, zero-shot accuracy. */
    public static Table results(Grouping grouping) {
        List<String> header = new ArrayList<>(List.of("task", "split", "method"));
        grouping.varyingKeys().forEach(key -> header.add(Grouping.shortName(key)));
        header.add("final accuracy (mean ± std)");
        // The tasks' other metrics (F1 for MRPC and QQP, MCC for CoLA), a column each when some run reports it.
        List<TaskMetric> others = new ArrayList<>();
        for (TaskMetric metric : TaskMetric.values()) {
            if (metric != TaskMetric.ACCURACY && grouping.series().stream()
                    .anyMatch(series -> series.finalTaskMetric(metric.key()).count() > 0)) {
                others.add(metric);
                header.add("final " + metric.key().toUpperCase(Locale.ROOT) + " (mean ± std)");
            }
        }
        // A personalised method's accuracies per group of clients (P: participants, NP: held out), each a column.
        List<String> groups = grouping.series().stream().flatMap(series -> series.runs().stream())
                .flatMap(run -> run.finalMetricKeys().stream()).filter(key -> key.endsWith("_accuracy"))
                .distinct().toList();
        groups.forEach(key -> header.add("final " + key.substring(0, key.length() - "_accuracy".length())
                .toUpperCase(Locale.ROOT) + " accuracy (mean ± std)"));
        header.addAll(List.of("seeds", "rounds", "zero-shot accuracy"));
        List<List<String>> rows = new ArrayList<>();
        for (Series series : grouping.series()) {
            List<String> row = new ArrayList<>(List.of(series.task(), series.split(), series.method()));
            grouping.varyingKeys().forEach(key -> row.add(parameterCell(series, key)));
            row.add(finalAccuracy(series));
            for (TaskMetric metric : others) {
                Stats stats = series.finalTaskMetric(metric.key());
                row.add(stats.count() == 0 ? "n/a" : meanStd(stats));
            }
            for (String key : groups) {
                Stats stats = series.finalTaskMetric(key);
                row.add(stats.count() == 0 ? "n/a" : meanStd(stats));
            }
            row.add(seeds(series));
            row.add(series.minRounds() == series.maxRounds() ? String.valueOf(series.maxRounds())
                    : series.minRounds() + "–" + series.maxRounds());
            row.add(zeroShot(series.zeroShotAccuracy()));
            rows.add(row);
        }
        return new Table("Final " + evaluationSplit(grouping) + " accuracy", header, rows);
    }

    /**
     * A parameter's cell: n/a for a key the method does not read (a profile, for a method without one) and for a
     * search setting of a method that does not search (zero-shot, in-context).
     */
    private static String parameterCell(Series series, String key) {
        // A method this fedbpt no longer knows counts as tuning (its settings are shown as they were).
        boolean searches = !Methods.isKnown(series.method()) || Methods.traits(series.method()).runsRounds();
        String value = series.parameters().get(key);
        return value != null && (searches || !key.startsWith("search.")) ? value : "n/a";
    }

    /**
     * The seeds cell: how many distinct seeds, then how many run folders when several hold one seed (copies count
     * once), and how many are unfinished: "2", "1 (4 runs)", "4 (1 unfinished)".
     */
    static String seeds(Series series) {
        int seeds = series.seeds().size();
        List<String> notes = new ArrayList<>();
        if (series.runs().size() > seeds) {
            notes.add(series.runs().size() + " runs");
        }
        if (series.unfinishedCount() > 0) {
            notes.add(series.unfinishedCount() + " unfinished");
        }
        return seeds + (notes.isEmpty() ? "" : " (" + String.join(", ", notes) + ")");
    }

    /** One table per {@link Ablation}: a row per combination of the other coordinates, a column per value. */
    public static List<Table> ablations(Grouping grouping) {
        List<Table> tables = new ArrayList<>();
        for (Ablation ablation : Ablation.of(grouping)) {
            List<String> header = new ArrayList<>(List.of("task", "split", "method"));
            ablation.otherKeys().forEach(other -> header.add(Grouping.shortName(other)));
            ablation.values().forEach(value -> header.add(ablation.name() + " = " + value));
            List<List<String>> rows = new ArrayList<>();
            for (Ablation.Row row : ablation.rows()) {
                List<String> cells = new ArrayList<>(row.coordinates());
                for (String value : ablation.values()) {
                    Series series = row.byValue().get(value);
                    // n: the seeds the mean is over, not the folders (copies of a seed count once).
                    cells.add(series == null ? ""
                            : finalAccuracy(series) + " (n=" + series.finalAccuracy().count() + ")");
                }
                rows.add(cells);
            }
            String title = "Final " + evaluationSplit(grouping) + " accuracy by " + ablation.name()
                    + (ablation.name().equals(ablation.key()) ? "" : " (" + ablation.key() + ")");
            tables.add(new Table(title, header, rows));
        }
        return tables;
    }

    /**
     * What the accuracies were measured on ({@code data.eval-split}): "test", "dev" (a development split drawn from
     * the train file), or both named when the runs differ.
     */
    static String evaluationSplit(Grouping grouping) {
        TreeSet<String> splits = new TreeSet<>();
        for (Series series : grouping.series()) {
            series.runs().forEach(run -> splits.add(run.settings().get("data.eval-split")));
        }
        return splits.isEmpty() ? "test" : String.join("/", splits);
    }

    /** "mean ± std" over the finished seeds; "± n/a" with one seed (however many folders); "n/a" without one. */
    static String finalAccuracy(Series series) {
        Stats stats = series.finalAccuracy();
        if (stats.count() == 0) {
            return series.finishedRuns().isEmpty() ? "n/a (unfinished)" : "n/a";
        }
        return meanStd(stats);
    }

    static String meanStd(Stats stats) {
        return format(stats.mean()) + " ± " + (stats.count() > 1 ? format(stats.std()) : "n/a");
    }

    private static String zeroShot(Stats stats) {
        if (stats.count() == 0) {
            return "n/a";
        }
        return stats.count() > 1 && stats.std() >= 5e-5 ? meanStd(stats) : format(stats.mean());
    }

    static String format(double value) {
        return String.format(Locale.ROOT, "%.4f", value);
    }
}
