package dev.fedbpt.cli.sweep;

import dev.fedbpt.actors.RunFolder;
import dev.fedbpt.config.ExperimentConfig;
import java.nio.file.Path;
import java.util.Locale;

/** What a cell's run folder holds, read from the files the experiment runner writes there. */
public enum CellStatus {
    /** No run yet (or a folder with nothing but the stored configuration). */
    NEW,
    /** A journal (or its checkpoint) but no result: the run stopped and will be resumed. */
    PARTIAL,
    /** result.json is there: the cell is skipped. */
    FINISHED,
    /** The folder holds another experiment (its config.conf differs): the sweep file or --set changed since. */
    CHANGED;

    public static CellStatus of(Path folder, ExperimentConfig config) {
        if (RunFolder.holdsAnotherExperiment(folder, config)) {
            return CHANGED;
        }
        if (RunFolder.holdsResult(folder)) {
            return FINISHED;
        }
        return RunFolder.hasStarted(folder) ? PARTIAL : NEW;
    }

    public String text() {
        return name().toLowerCase(Locale.ROOT);
    }
}
