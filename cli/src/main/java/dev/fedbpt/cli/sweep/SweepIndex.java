package dev.fedbpt.cli.sweep;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.fedbpt.actors.RunFolder;
import dev.fedbpt.actors.RunOutputs;
import dev.fedbpt.config.RunLayout;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code sweep.json} in the sweep's out folder: every cell with its folder (relative to that file), axis labels,
 * overrides and status (new, partial, finished, changed, or failed when its last run in this sweep failed).
 * The overrides are what the sweep file asks now; a cell that has run keeps the execution settings of its own
 * config.conf (they do not change results, so the sweep does not count it as changed), and lists under
 * {@value #EXECUTION_CHANGES} each one the sweep file now asks otherwise, as {@code "pool.workers 1 -> 2"} (ran with
 * -> asked now). Rewritten after every cell, so it is current even when a sweep is stopped.
 */
public final class SweepIndex {
    public static final String FILE = RunLayout.SWEEP_INDEX_FILE;
    /** The key of a cell's entry that lists the execution settings it ran with other than the sweep file asks. */
    public static final String EXECUTION_CHANGES = "execution_changes";
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private SweepIndex() {}

    /** @param failures the failure message of each cell (by name) whose run failed in this sweep */
    public static Path write(SweepPlan plan, Map<String, String> failures) {
        List<Map<String, Object>> cells = new ArrayList<>();
        for (SweepPlan.Cell cell : plan.cells()) {
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("name", cell.name());
            entry.put("folder", plan.out().relativize(cell.folder()).toString());
            entry.put("labels", cell.spec().labels());
            entry.put("overrides", cell.spec().overrides());
            String failure = failures.get(cell.name());
            CellStatus status = cell.status();
            List<String> executionChanges = status == CellStatus.FINISHED || status == CellStatus.PARTIAL
                    ? RunFolder.executionChanges(cell.folder(), cell.config()) : List.of();
            if (!executionChanges.isEmpty()) {
                entry.put(EXECUTION_CHANGES, executionChanges);
            }
            entry.put("status", failure != null && status != CellStatus.FINISHED ? "failed" : status.text());
            if (failure != null) {
                entry.put("failure", failure);
            }
            cells.add(entry);
        }
        Map<String, Object> index = new LinkedHashMap<>();
        index.put("sweep_file", plan.sweep().file().toString());
        index.put("base", plan.sweep().base() == null ? null : plan.sweep().base().toString());
        index.put("cells", cells);
        Path file = plan.out().resolve(FILE);
        try {
            Files.createDirectories(plan.out());
            RunOutputs.writeAtomically(file, JSON.writeValueAsString(index) + "\n");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
        return file;
    }
}
