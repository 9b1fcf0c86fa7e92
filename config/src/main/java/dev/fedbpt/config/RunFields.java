package dev.fedbpt.config;

import java.util.Set;

/**
 * The field names of a run folder's two outputs, one place for the writer (the actors' run outputs) and every reader
 * (resume checks, sweeps, chaos runs, reports): a metrics.jsonl line per completed round, and result.json once at
 * the end. Some names are on both.
 */
public final class RunFields {
    // On both: what a round line or the whole run saw.
    public static final String GLOBAL_MEAN_SHA256 = "global_mean_sha256";
    public static final String FAULTS_INJECTED = "faults_injected";
    public static final String RESULTS_REJECTED = "results_rejected";
    public static final String RESULTS_LATE = "results_late";
    public static final String NON_FINITE_SCORES = "non_finite_scores";

    // A metrics.jsonl line.
    public static final String ROUND = "round";
    public static final String ATTEMPTS = "attempts";
    public static final String SAMPLED = "sampled";
    public static final String REPORTED = "reported";
    public static final String DROPPED = "dropped";
    public static final String MEAN_CLIENT_LOSS = "mean_client_loss";
    public static final String TEST_ACCURACY = "test_accuracy";
    /** Prefix of the task's other test metrics on a line ({@code test_f1}, {@code test_mcc}). */
    public static final String TEST_METRIC_PREFIX = "test_";
    public static final String TEST_CONFUSION = "test_confusion";
    public static final String BYTES_UP = "bytes_up";
    public static final String BYTES_DOWN = "bytes_down";
    public static final String FORWARD_ROWS = "forward_rows";
    /** The round's own wall time, evaluation not included. */
    public static final String WALL_MS = "wall_ms";
    /** The wall time of the evaluation after the round; null when none ran, or the journal predates it. */
    public static final String EVAL_MS = "eval_ms";
    public static final String FAULTS = "faults";
    public static final String CLIENTS = "clients";

    // result.json.
    public static final String EXPERIMENT = "experiment";
    public static final String METHOD = "method";
    public static final String SEED = "seed";
    /** The arithmetic of the model's linear layers, fp32 or int8 ({@code model.precision}). */
    public static final String PRECISION = "precision";
    public static final String ROUNDS_COMPLETED = "rounds_completed";
    public static final String ROUNDS_RESAMPLED = "rounds_resampled";
    public static final String ZERO_SHOT_PREFIX = "zero_shot_";
    public static final String FINAL_PREFIX = "final_";
    public static final String ZERO_SHOT_ACCURACY = ZERO_SHOT_PREFIX + "accuracy";
    public static final String FINAL_ACCURACY = FINAL_PREFIX + "accuracy";
    public static final String EVAL_SPLIT = "eval_split";
    public static final String CONFIG_HASH = "config_hash";
    /** The cell whose run a sweep copied into this one (it computes the same run); absent when the cell ran. */
    public static final String SAME_RUN_AS = "same_run_as";
    /**
     * The profile the method ran with ({@code search.profile}: FedBPT's paper or reference-code reading), written by
     * the methods that have one (the engine's FedBPT settings, which cannot import this class); absent for the others.
     */
    public static final String PROFILE = "profile";

    /**
     * The keys of a metrics.jsonl line that the framework writes; every other number on the line is a metric of the
     * run's method (a step size, API calls, ...).
     */
    public static final Set<String> FRAMEWORK_METRICS_KEYS = Set.of(ROUND, ATTEMPTS, SAMPLED, REPORTED, DROPPED,
            MEAN_CLIENT_LOSS, TEST_ACCURACY, BYTES_UP, BYTES_DOWN, FORWARD_ROWS, WALL_MS, EVAL_MS, FAULTS_INJECTED,
            FAULTS, NON_FINITE_SCORES, RESULTS_REJECTED, RESULTS_LATE, GLOBAL_MEAN_SHA256, CLIENTS);

    /** Whether the framework writes {@code key} on a metrics.jsonl line (else it is the method's metric). */
    public static boolean isFrameworkMetricsKey(String key) {
        return FRAMEWORK_METRICS_KEYS.contains(key) || key.startsWith(TEST_METRIC_PREFIX);
    }

    private RunFields() {}
}
