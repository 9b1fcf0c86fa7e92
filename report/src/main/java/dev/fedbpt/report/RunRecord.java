package dev.fedbpt.report;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigParseOptions;
import com.typesafe.config.ConfigValue;
import dev.fedbpt.config.ConfigLoader;
import dev.fedbpt.config.RunLayout;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * One run folder as the report reads it (actors.RunFolder is the run side: claiming a folder for a configuration):
 * its resolved configuration (flattened to {@code section.key -> value}, without the {@code fedbpt}
 * root), its per-round metrics and, when it finished, its result.
 *
 * @param task     the task's name (a task file's own name when {@code data.task} is its path, see {@link TaskNames})
 * @param settings every key of {@code config.conf} under {@code fedbpt}, and the default of each key the folder's
 *                 version did not have yet, values as text, sorted by key
 * @param result   null while the run is unfinished (no {@code result.json})
 */
public record RunRecord(Path directory, String task, SortedMap<String, String> settings, List<MetricsRow> rows,
                        RunResult result) {
    public static final String CONFIG_FILE = RunLayout.CONFIG_FILE;
    public static final String METRICS_FILE = RunLayout.METRICS_FILE;
    public static final String RESULT_FILE = RunLayout.RESULT_FILE;

    public RunRecord {
        settings = Collections.unmodifiableSortedMap(new TreeMap<>(settings));
        rows = List.copyOf(rows);
    }

    /** Reads a run folder: {@code config.conf} is required, {@code metrics.jsonl} and {@code result.json} optional. */
    public static RunRecord read(Path directory) {
        Path configFile = directory.resolve(CONFIG_FILE);
        if (!Files.isRegularFile(configFile)) {
            throw new ReportInputException(configFile, 0, "missing: every run folder holds the config.conf it ran with");
        }
        SortedMap<String, String> settings = readSettings(configFile);
        Path metricsFile = directory.resolve(METRICS_FILE);
        List<MetricsRow> rows = Files.isRegularFile(metricsFile) ? RunFiles.readMetrics(metricsFile) : List.of();
        Path resultFile = directory.resolve(RESULT_FILE);
        RunResult result = Files.isRegularFile(resultFile) ? RunFiles.readResult(resultFile) : null;
        return new RunRecord(directory, TaskNames.of(settings.get("data.task"), directory), settings, rows, result);
    }

    /**
     * The run folders under the given folders: each input is a run folder itself or is searched recursively for
     * folders holding {@code result.json} or {@code metrics.jsonl}. Sorted by path, without duplicates.
     */
    public static List<RunRecord> findAll(List<Path> inputs) {
        Map<Path, Path> found = new TreeMap<>();
        for (Path input : inputs) {
            if (!Files.isDirectory(input)) {
                throw new ReportInputException(input, 0, Files.exists(input) ? "not a folder" : "no such folder");
            }
            try (Stream<Path> paths = Files.walk(input)) {
                paths.filter(Files::isDirectory).filter(RunRecord::isRunFolder)
                        .forEach(dir -> found.putIfAbsent(realPath(dir), dir));
            } catch (IOException | UncheckedIOException e) {
                throw new ReportInputException(input, 0, "cannot search: " + e.getMessage(), e);
            }
        }
        if (found.isEmpty()) {
            throw new ReportInputException(null, 0, "no run folders (folders holding " + RESULT_FILE + " or "
                    + METRICS_FILE + ") under " + inputs);
        }
        List<RunRecord> runs = new ArrayList<>();
        for (Path dir : found.values()) {
            runs.add(read(dir));
        }
        return runs;
    }

    public static boolean isRunFolder(Path directory) {
        return Files.isRegularFile(directory.resolve(RESULT_FILE)) || Files.isRegularFile(directory.resolve(METRICS_FILE));
    }

    public boolean finished() {
        return result != null;
    }

    public String split() {
        return settings.getOrDefault("data.split", "unknown");
    }

    public String method() {
        String method = settings.get("experiment.method");
        if (method == null && result != null) {
            method = result.method();
        }
        return method == null ? "unknown" : method;
    }

    /** The experiment's seed, or null when neither the configuration nor the result gives one. */
    public String seed() {
        String seed = settings.get("experiment.seed");
        if (seed == null && result != null && result.seed() != null) {
            seed = result.seed().toString();
        }
        return seed;
    }

    /** Rounds completed: from the result when finished, else the last round in the metrics (0 without any). */
    public int roundsCompleted() {
        if (result != null && result.roundsCompleted() != null) {
            return result.roundsCompleted();
        }
        return rows.isEmpty() ? 0 : rows.get(rows.size() - 1).round();
    }

    /** The rounds the experiment was configured for, or null when the configuration does not say. */
    public Integer plannedRounds() {
        String rounds = settings.get("experiment.rounds");
        try {
            return rounds == null ? null : Integer.valueOf(rounds);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** The profile the run's method ran with, as its result.json records it; null without one (or unfinished). */
    public String profile() {
        return result == null ? null : result.profile();
    }

    public Double finalAccuracy() {
        return result == null ? null : result.finalAccuracy();
    }

    /** The task's final metric {@code key} (f1, mcc), or null when the run does not report it. */
    public Double finalTaskMetric(String key) {
        return result == null ? null : result.finalTaskMetrics().get(key);
    }

    /** The keys of {@link #finalTaskMetric} this run reports. */
    public java.util.Set<String> finalMetricKeys() {
        return result == null ? java.util.Set.of() : result.finalTaskMetrics().keySet();
    }

    public Double zeroShotAccuracy() {
        return result == null ? null : result.zeroShotAccuracy();
    }

    private static SortedMap<String, String> readSettings(Path file) {
        Config root;
        try {
            root = ConfigFactory.parseFile(file.toFile(), ConfigParseOptions.defaults().setAllowMissing(false)).resolve();
        } catch (ConfigException e) {
            throw new ReportInputException(file, 0, "not valid HOCON: " + e.getMessage(), e);
        }
        if (!root.hasPath("fedbpt")) {
            throw new ReportInputException(file, 0, "no fedbpt { ... } section");
        }
        Config config;
        try {
            // A folder written before a key existed ran with its default, as resuming it would.
            config = ConfigLoader.completeStored(root.getConfig("fedbpt"));
        } catch (ConfigException e) {
            throw new ReportInputException(file, 0, "fedbpt must be an object: " + e.getMessage(), e);
        }
        Map<String, String> settings = new LinkedHashMap<>();
        for (Map.Entry<String, ConfigValue> entry : config.entrySet()) {
            Object value = entry.getValue().unwrapped();
            settings.put(entry.getKey(), String.valueOf(value));
        }
        return new TreeMap<>(settings);
    }

    private static Path realPath(Path dir) {
        try {
            return dir.toRealPath();
        } catch (IOException e) {
            return dir.toAbsolutePath().normalize();
        }
    }
}
