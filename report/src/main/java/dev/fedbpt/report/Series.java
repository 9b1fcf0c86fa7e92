package dev.fedbpt.report;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Runs that differ only by seed: the same task, split, method and values of the varying hyper-parameters.
 *
 * @param parameters the values of every varying key (see {@link Grouping#varyingKeys()}), by key
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

    /** Final accuracy over the finished runs' seeds. */
    public Stats finalAccuracy() {
        List<Double> values = new ArrayList<>();
        for (RunRecord run : finishedRuns()) {
            values.add(run.finalAccuracy());
        }
        return Stats.of(values);
    }

    /** The task's final metric {@code key} (f1, mcc) over the finished runs that report it. */
    public Stats finalTaskMetric(String key) {
        List<Double> values = new ArrayList<>();
        for (RunRecord run : finishedRuns()) {
            values.add(run.finalTaskMetric(key));
        }
        return Stats.of(values);
    }

    /** Zero-shot (no prompt) accuracy over the runs that report it. */
    public Stats zeroShotAccuracy() {
        List<Double> values = new ArrayList<>();
        for (RunRecord run : runs) {
            values.add(run.zeroShotAccuracy());
        }
        return Stats.of(values);
    }

    public int minRounds() {
        return runs.stream().mapToInt(RunRecord::roundsCompleted).min().orElse(0);
    }

    public int maxRounds() {
        return runs.stream().mapToInt(RunRecord::roundsCompleted).max().orElse(0);
    }

    /** The quantity per round over this series' runs (those that have a value for that round). */
    public SortedMap<Integer, Stats> perRound(Quantity quantity) {
        SortedMap<Integer, List<Double>> values = new TreeMap<>();
        for (RunRecord run : runs) {
            for (Map.Entry<Integer, Double> entry : quantity.of(run).entrySet()) {
                values.computeIfAbsent(entry.getKey(), round -> new ArrayList<>()).add(entry.getValue());
            }
        }
        SortedMap<Integer, Stats> stats = new TreeMap<>();
        values.forEach((round, list) -> stats.put(round, Stats.of(list)));
        return stats;
    }
}
