package dev.fedbpt.report;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Runs that differ only by seed: the same task, split, method and values of the varying hyper-parameters. Several
 * folders may hold one seed (a sweep's copied cells, the same cell in two sweeps): they count as one seed, at their
 * mean, so a spread is always one between seeds.
 *
 * @param parameters the values of the varying keys (see {@link Grouping#varyingKeys()}) its method reads, by key; a
 *                   key the method does not read (FedBPT's profile, for a method without one) is absent
 * @param labelKeys  the varying keys worth naming in this series' label (those that vary among its method's runs,
 *                   less those a leading key names, see {@link Grouping})
 */
public record Series(String task, String split, String method, SortedMap<String, String> parameters,
                     List<String> labelKeys, List<RunRecord> runs) {

    public Series {
        parameters = Collections.unmodifiableSortedMap(new TreeMap<>(parameters));
        labelKeys = List.copyOf(labelKeys);
        runs = List.copyOf(runs);
    }

    /** The legend label: the method, then {@code name=value} for each label key. */
    public String label() {
        StringBuilder label = new StringBuilder(method);
        for (String key : labelKeys) {
            label.append(' ').append(Grouping.shortName(key)).append('=').append(parameters.get(key));
        }
        return label.toString();
    }

    public List<RunRecord> finishedRuns() {
        return runs.stream().filter(RunRecord::finished).toList();
    }

    public int unfinishedCount() {
        return runs.size() - finishedRuns().size();
    }

    /** The distinct seeds of the runs, in the runs' order (a run without a seed counts as one seed of its own). */
    public List<String> seeds() {
        return runs.stream().map(Series::seedOf).distinct().toList();
    }

    /** Final accuracy over the finished runs' seeds. */
    public Stats finalAccuracy() {
        return Stats.of(finalAccuracyBySeed().values());
    }

    /** Each finished seed's final accuracy (the mean of its runs'), by seed, for the seeds that have one. */
    public Map<String, Double> finalAccuracyBySeed() {
        return bySeed(finishedRuns(), RunRecord::finalAccuracy);
    }

    /** The task's final metric {@code key} (f1, mcc) over the seeds of the finished runs that report it. */
    public Stats finalTaskMetric(String key) {
        return Stats.of(bySeed(finishedRuns(), run -> run.finalTaskMetric(key)).values());
    }

    /** Zero-shot (no prompt) accuracy over the seeds of the runs that report it. */
    public Stats zeroShotAccuracy() {
        return Stats.of(bySeed(runs, RunRecord::zeroShotAccuracy).values());
    }

    public int minRounds() {
        return runs.stream().mapToInt(RunRecord::roundsCompleted).min().orElse(0);
    }

    public int maxRounds() {
        return runs.stream().mapToInt(RunRecord::roundsCompleted).max().orElse(0);
    }

    /** The quantity per round over this series' seeds (those that have a value for that round). */
    public SortedMap<Integer, Stats> perRound(Quantity quantity) {
        SortedMap<Integer, Map<String, List<Double>>> values = new TreeMap<>();
        for (RunRecord run : runs) {
            for (Map.Entry<Integer, Double> entry : quantity.of(run).entrySet()) {
                values.computeIfAbsent(entry.getKey(), round -> new LinkedHashMap<>())
                        .computeIfAbsent(seedOf(run), seed -> new ArrayList<>()).add(entry.getValue());
            }
        }
        SortedMap<Integer, Stats> stats = new TreeMap<>();
        values.forEach((round, bySeed) -> stats.put(round, Stats.of(bySeed.values().stream()
                .map(list -> Stats.of(list).mean()).toList())));
        return stats;
    }

    /** The finite values of {@code value} over {@code runs}, averaged per seed; seeds without one are left out. */
    private static Map<String, Double> bySeed(List<RunRecord> runs, Function<RunRecord, Double> value) {
        Map<String, List<Double>> values = new LinkedHashMap<>();
        for (RunRecord run : runs) {
            values.computeIfAbsent(seedOf(run), seed -> new ArrayList<>()).add(value.apply(run));
        }
        Map<String, Double> means = new LinkedHashMap<>();
        values.forEach((seed, list) -> {
            Stats stats = Stats.of(list);
            if (stats.count() > 0) {
                means.put(seed, stats.mean());
            }
        });
        return means;
    }

    /** The run's seed; a run that names none stands for a seed of its own (its folder). */
    private static String seedOf(RunRecord run) {
        return run.seed() != null ? run.seed() : "folder " + run.directory();
    }
}
