package dev.fedbpt.cli.sweep;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fedbpt.actors.RunFolder;
import dev.fedbpt.actors.RunOutputs;
import dev.fedbpt.cli.sweep.SweepPlan.Cell;
import dev.fedbpt.config.RunFields;
import dev.fedbpt.config.RunLayout;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Cells that differ only in keys their method does not read (centralised BBT and zero-shot under each client split)
 * compute the same run, bit for bit ({@code ExperimentConfig.runIdentity}). The sweep computes it once: a new cell
 * whose twin has finished gets the twin's metrics and a result that names it, in a folder of its own.
 */
public final class SameRun {
    private static final String METRICS_FILE = RunLayout.METRICS_FILE;
    private static final ObjectMapper JSON = new ObjectMapper();

    private SameRun() {}

    /** A finished cell of the plan that computed {@code cell}'s run, if any. */
    public static Optional<Cell> finishedTwin(Cell cell, List<Cell> cells) {
        return firstTwin(cell, cells.stream().filter(other -> other != cell
                && other.status() == CellStatus.FINISHED));
    }

    /** The first cell before {@code cell} in the plan that computes the same run: the one the sweep will copy. */
    public static Optional<Cell> earlierTwin(Cell cell, List<Cell> cells) {
        return firstTwin(cell, cells.subList(0, cells.indexOf(cell)).stream());
    }

    private static Optional<Cell> firstTwin(Cell cell, Stream<Cell> candidates) {
        String identity = cell.config().runIdentity();
        return candidates.filter(other -> other.config().runIdentity().equals(identity)).findFirst();
    }

    /**
     * Gives {@code cell} the run {@code twin} computed: its own config.conf, the twin's metrics, and the twin's result
     * under the cell's name, seed and configuration hash, with {@value RunFields#SAME_RUN_AS} naming the cell that
     * ran. The result is written last, so a copy that stops half-way leaves a cell that is not finished.
     */
    public static void copy(Cell twin, Cell cell) {
        String configHash = RunFolder.claim(cell.folder(), cell.config()).experimentHash();
        try {
            Path metrics = twin.folder().resolve(METRICS_FILE);
            if (Files.exists(metrics)) {
                Files.copy(metrics, cell.folder().resolve(METRICS_FILE), StandardCopyOption.REPLACE_EXISTING);
            }
            Map<String, Object> result = new LinkedHashMap<>(readResult(twin));
            result.put(RunFields.EXPERIMENT, cell.config().experiment().name());
            result.put(RunFields.SEED, cell.config().experiment().seed());
            result.put(RunFields.CONFIG_HASH, configHash);
            // A twin that is itself a copy names the cell that ran.
            result.putIfAbsent(RunFields.SAME_RUN_AS, twin.name());
            RunOutputs.writeAtomically(RunLayout.result(cell.folder()),
                    JSON.writeValueAsString(result) + "\n");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot copy the run of " + twin.folder() + " to " + cell.folder(), e);
        }
    }

    private static Map<String, Object> readResult(Cell cell) {
        Path file = RunLayout.result(cell.folder());
        try {
            return JSON.readValue(file.toFile(), new TypeReference<LinkedHashMap<String, Object>>() {});
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }
}
