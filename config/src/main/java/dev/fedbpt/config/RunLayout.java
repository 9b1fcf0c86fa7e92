package dev.fedbpt.config;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The files of a run folder and of a sweep, one place for their names: every module that writes or reads them
 * (the run's outputs, resume, sweeps, chaos runs, reports) resolves them here. The fields inside them are
 * {@link RunFields}.
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

    private RunLayout() {}

    /**
     * The stored configuration of the run folder {@code run}, which a command that continues or reads a run needs.
     *
     * @throws ConfigError saying that the folder does not exist, or is not a run folder
     */
    public static Path requireConfig(Path run) {
        if (!Files.exists(run)) {
            throw new ConfigError(null, "run folder " + run + " does not exist");
        }
        Path stored = config(run);
        if (!Files.isRegularFile(stored)) {
            throw new ConfigError(null, run + " is not a fedbpt run folder (no " + CONFIG_FILE + ")");
        }
        return stored;
    }

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
