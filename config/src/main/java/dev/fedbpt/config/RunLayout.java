package dev.fedbpt.config;

import java.nio.file.Path;
import java.util.Set;

/**
 * The files of a run folder and of a sweep, one place for their names: every module that writes or reads them
 * (the run's outputs, resume, sweeps, chaos runs, reports) resolves them here.
 */
public final class RunLayout {
    /** The configuration a run folder belongs to (the resolved HOCON, {@code fedbpt { ... }}). */
    public static final String CONFIG_FILE = "config.conf";
    /** One JSON object per completed round. */
    public static final String METRICS_FILE = "metrics.jsonl";
    /** The finished run's summary, written once at the end. */
    public static final String RESULT_FILE = "result.json";
    /** A sweep's index of its cells. */
    public static final String SWEEP_INDEX_FILE = "sweep.json";

    /**
     * The keys of a metrics.jsonl line that the framework writes; every other number on the line is a metric of the
     * run's method (a step size, API calls, ...).
     */
    public static final Set<String> FRAMEWORK_METRICS_KEYS = Set.of("round", "attempts", "sampled", "reported",
            "dropped", "mean_client_loss", "test_accuracy", "bytes_up", "bytes_down", "forward_rows", "wall_ms",
            "eval_ms", "faults_injected", "faults", "non_finite_scores", "results_rejected", "results_late",
            "global_mean_sha256", "clients");

    /** Prefix of the task's other test metrics on a metrics.jsonl line ({@code test_f1}, {@code test_mcc}). */
    public static final String TEST_METRIC_PREFIX = "test_";

    /** Whether the framework writes {@code key} on a metrics.jsonl line (else it is the method's metric). */
    public static boolean isFrameworkMetricsKey(String key) {
        return FRAMEWORK_METRICS_KEYS.contains(key) || key.startsWith(TEST_METRIC_PREFIX);
    }

    private RunLayout() {}

    public static Path config(Path run) {
        return run.resolve(CONFIG_FILE);
    }

    public static Path metrics(Path run) {
        return run.resolve(METRICS_FILE);
    }

    public static Path result(Path run) {
        return run.resolve(RESULT_FILE);
    }
}
