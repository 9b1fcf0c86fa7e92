package dev.fedbpt.cli.sweep;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fedbpt.actors.TimeLeft;
import dev.fedbpt.cli.sweep.SweepPlan.Cell;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * How long a sweep's unfinished cells will take, from the round times its finished cells recorded in their
 * metrics.jsonl. A cell is timed by the finished cells that do the same work per round: the same configuration up to
 * keys that change the numbers but not the rows scored ({@link #SAME_WORK_KEYS}), all tuning methods alike (each
 * scores clean and, unless r_p is 0, perturbed rows of every candidate). Methods that only evaluate record no rounds, so they and cells
 * with nothing like them finished stay untimed. Display only: the sweep runs the same without it.
 */
public final class SweepTimeLeft {
    /**
     * Keys (under {@code fedbpt.}) that change a run's numbers but not how many rows of what length a round scores;
     * of the perturbation rate, only whether it is 0 counts (no perturbed rows then).
     */
    static final List<String> SAME_WORK_KEYS = List.of("experiment.seed", "data.split", "data.dirichlet-alpha",
            "search.perturbation-rate", "search.step-rule", "search.cmaes-variant", "search.sigma0",
            "model.temperature", "model.projection-seed");
    private static final String METRICS_FILE = "metrics.jsonl";
    private static final ObjectMapper JSON = new ObjectMapper();

    private SweepTimeLeft() {}

    /**
     * @param toRun cells the sweep will compute
     * @param toCopy cells that will take a twin's run
     * @param millis the estimated time of the timed cells to run
     * @param untimed cells to run that no finished cell times
     */
    public record Estimate(int toRun, int toCopy, long millis, int untimed) {
        /** E.g. "6 cells to run, about 8 h 05 min (round times of finished cells like them); 4 to copy". */
        public String text() {
            String copies = toCopy == 0 ? "" : "; " + toCopy + " to copy";
            if (toRun == 0) {
                return "nothing to run" + copies;
            }
            String time = untimed == toRun ? "untimed: no finished cell does the same work per round"
                    : "about " + TimeLeft.format(millis) + " (round times of finished cells like them"
                    + (untimed == 0 ? ")" : "; " + untimed + " untimed, no finished cell like them)");
            return String.format(Locale.ROOT, "%d cell%s to run, %s%s", toRun, toRun == 1 ? "" : "s", time, copies);
        }
    }

    /** The time {@code selected}'s unfinished cells need, timed by the finished cells of {@code cells}. */
    public static Estimate of(List<Cell> cells, List<Cell> selected) {
        Map<String, List<Long>> roundMillis = new HashMap<>();
        Set<String> runsCounted = new HashSet<>();
        for (Cell cell : cells) {
            // A copied cell holds its twin's metrics: count each run once.
            if (cell.status() == CellStatus.FINISHED && runsCounted.add(cell.config().runIdentity())) {
                roundMillis.computeIfAbsent(workIdentity(cell), key -> new ArrayList<>())
                        .addAll(roundMillis(cell.folder()));
            }
        }
        int toRun = 0;
        int toCopy = 0;
        int untimed = 0;
        double millis = 0;
        for (Cell cell : selected) {
            CellStatus status = cell.status(); // read from the cell's folder
            if (status == CellStatus.FINISHED) {
                continue;
            }
            if (status == CellStatus.NEW && willCopy(cell, cells, selected)) {
                toCopy++;
                continue;
            }
            toRun++;
            List<Long> times = roundMillis.getOrDefault(workIdentity(cell), List.of());
            if (!cell.config().experiment().method().tunes() || times.isEmpty()) {
                untimed++;
                continue;
            }
            int roundsLeft = cell.config().experiment().rounds() - roundMillis(cell.folder()).size();
            millis += Math.max(0, roundsLeft) * times.stream().mapToLong(Long::longValue).average().orElse(0);
        }
        return new Estimate(toRun, toCopy, Math.round(millis), untimed);
    }

    /** Whether the sweep will copy {@code cell}: its first twin has finished, or runs before it in this sweep. */
    private static boolean willCopy(Cell cell, List<Cell> cells, List<Cell> selected) {
        return SameRun.finishedTwin(cell, cells).isPresent()
                || SameRun.earlierTwin(cell, cells).filter(selected::contains).isPresent();
    }

    private static String workIdentity(Cell cell) {
        List<String> keys = new ArrayList<>(SAME_WORK_KEYS);
        if (cell.config().experiment().method().tunes()) {
            keys.add("experiment.method");
        }
        boolean perturbs = cell.config().search().perturbationRate() > 0;
        return cell.config().identityWithout(keys) + (perturbs ? " perturbed" : " clean");
    }

    /** The wall times of the rounds a folder's metrics.jsonl records; none when it is missing or unreadable. */
    static List<Long> roundMillis(Path folder) {
        Path metrics = folder.resolve(METRICS_FILE);
        List<Long> millis = new ArrayList<>();
        if (!Files.isRegularFile(metrics)) {
            return millis;
        }
        try {
            for (String line : Files.readAllLines(metrics)) {
                JsonNode wall = line.isBlank() ? null : JSON.readTree(line).get("wall_ms");
                if (wall != null && wall.isNumber()) {
                    millis.add(wall.asLong());
                }
            }
        } catch (IOException e) {
            return List.of(); // an estimate only: a metrics file being written or damaged leaves the cell untimed
        }
        return millis;
    }
}
