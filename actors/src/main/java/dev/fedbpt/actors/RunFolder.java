package dev.fedbpt.actors;

import dev.fedbpt.config.ConfigError;
import dev.fedbpt.config.ConfigLoader;
import dev.fedbpt.config.ExperimentConfig;
import dev.fedbpt.config.RunLayout;
import dev.fedbpt.persistence.JournalCheckpoint;
import dev.fedbpt.persistence.JournalSchema;
import dev.fedbpt.persistence.JournalSettings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;

/**
 * A run folder belongs to one experiment: the configuration stored in its {@code config.conf} when it started. A
 * later fedbpt that knows more configuration keys still continues it (the new keys take their defaults), and so does
 * a configuration that differs only in execution settings ({@link ExperimentConfig#EXECUTION_KEYS}: batching,
 * threads, snapshots), but one that differs in any other setting is refused, so a run folder never silently changes
 * experiment. The stored file stays as it is once the folder holds a journal or a result, whose hash it is; a folder that
 * holds neither (a run that never started, or a checkout without the git-ignored journal and without its
 * checkpoint) stores the configuration of the run that now computes there.
 */
public final class RunFolder {
    public static final String CONFIG_FILE = RunLayout.CONFIG_FILE;

    private RunFolder() {}

    /** Whether {@code directory} holds an experiment whose settings, execution aside, differ from {@code config}'s. */
    public static boolean holdsAnotherExperiment(Path directory, ExperimentConfig config) {
        Path stored = directory.resolve(CONFIG_FILE);
        if (!Files.isRegularFile(stored)) {
            return false;
        }
        try {
            return !ConfigLoader.loadRunFolder(stored, List.of()).experimentHocon().equals(config.experimentHocon());
        } catch (ConfigError unreadable) {
            return true; // e.g. a key this version no longer knows
        }
    }

    /**
     * The execution settings in which {@code config} differs from {@code directory}'s stored configuration, as
     * {@code "pool.workers 1 -> 2"}; none for a new folder.
     */
    public static List<String> executionChanges(Path directory, ExperimentConfig config) {
        Path stored = directory.resolve(CONFIG_FILE);
        return Files.isRegularFile(stored)
                ? config.executionChangesFrom(ConfigLoader.loadRunFolder(stored, List.of())) : List.of();
    }

    /**
     * A run folder claimed for an experiment.
     *
     * @param experimentHash the SHA-256 of the stored configuration, which the journal records
     * @param fresh          whether the folder held no configuration and nothing computed (no journal, checkpoint or
     *                       result) before the claim: a run refused before it computes may then {@link #release} it
     */
    public record Claim(Path directory, String experimentHash, boolean fresh, boolean createdDirectory) {
        /**
         * Deletes what this run wrote into a fresh folder (its configuration and journal, and the folder itself
         * when the run created it and it is empty), so that the corrected re-run with the same folder starts as
         * new; a folder that held computed work is left as it was.
         */
        public void release() {
            if (!fresh) {
                return;
            }
            try {
                Files.deleteIfExists(directory.resolve(CONFIG_FILE));
                Files.deleteIfExists(JournalSettings.databaseFile(directory));
                if (createdDirectory) {
                    try (var left = Files.list(directory)) {
                        if (left.findAny().isEmpty()) Files.delete(directory);
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot remove what a refused run wrote in " + directory, e);
            }
        }
    }

    /**
     * Prepares a run folder for the server of {@code config}'s run: rebuilds a missing journal from the folder's
     * checkpoint (before the claim, which keeps the stored configuration of a folder that has one), claims the
     * folder and opens the journal. A refusal while opening leaves a fresh folder as it was.
     */
    public static Claim openForRun(Path directory, ExperimentConfig config, Consumer<String> progress) {
        if (!holdsAnotherExperiment(directory, config) && JournalCheckpoint.restoreIfNoJournal(directory)) {
            progress.accept("journal rebuilt from " + JournalCheckpoint.FILE + " (this folder's portable checkpoint)");
        }
        Claim claim = claim(directory, config);
        try {
            JournalSchema.open(directory, claim.experimentHash());
        } catch (RuntimeException refused) {
            claim.release();
            throw refused;
        }
        return claim;
    }

    /**
     * Stores the configuration in a new run folder, or checks that an existing folder holds the same experiment.
     */
    public static Claim claim(Path directory, ExperimentConfig config) {
        Path stored = directory.resolve(CONFIG_FILE);
        try {
            boolean createdDirectory = !Files.exists(directory);
            boolean fresh = !Files.exists(stored) && nothingComputedIn(directory);
            Files.createDirectories(directory);
            if (holdsAnotherExperiment(directory, config)) {
                throw new ConfigError(null, "run folder " + directory + " holds another experiment (" + stored
                        + " differs); use `fedbpt resume " + directory + "` to continue it, or choose another --out");
            }
            if (!Files.exists(stored) || nothingComputedIn(directory)) {
                RunOutputs.writeAtomically(stored, config.resolvedHocon());
            }
            return new Claim(directory, ExperimentConfig.hashOf(Files.readString(stored, StandardCharsets.UTF_8)),
                    fresh, createdDirectory);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare run folder " + directory, e);
        }
    }

    /** Whether the run in {@code directory} has finished: its result.json is there. */
    public static boolean holdsResult(Path directory) {
        return Files.isRegularFile(RunLayout.result(directory));
    }

    /** Whether a run has started in {@code directory}: its journal, or a checkpoint of it, is there. */
    public static boolean hasStarted(Path directory) {
        return Files.isRegularFile(JournalSettings.databaseFile(directory))
                || Files.isRegularFile(JournalCheckpoint.file(directory));
    }

    /** Whether no journal and no result name the stored file's hash yet. */
    private static boolean nothingComputedIn(Path directory) {
        return !hasStarted(directory) && !holdsResult(directory);
    }
}
