package dev.fedbpt.cli.sweep;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fedbpt.actors.RunFolder;
import dev.fedbpt.actors.TimeLeft;
import dev.fedbpt.cli.sweep.SweepPlan.Cell;
import dev.fedbpt.config.ConfigError;
import dev.fedbpt.config.ConfigLoader;
import dev.fedbpt.config.RunLayout;
import dev.fedbpt.engine.method.MethodSettings;
import dev.fedbpt.engine.method.MethodTraits;
import dev.fedbpt.engine.method.Methods;
import dev.fedbpt.engine.method.SettingsRules;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * How long a sweep's unfinished cells will take, from the round times finished runs recorded in their metrics.jsonl:
 * the sweep's own finished cells and the finished runs of other sweeps beside its output folder (a probe in
 * {@code results/step-rule} is timed by the grid's runs in {@code results/paper}). A cell is timed by the finished
 * runs that do the same work per round: the same configuration up to
 * keys that change the numbers but not the rows scored ({@link #SAME_WORK_KEYS}), all black-box tuning methods alike
 * (each scores clean and, unless r_p is 0, perturbed rows of every candidate). A white-box method is timed only by
 * runs of itself: FedPrompt's input vectors lengthen every row that a prefix leaves as it is, and FedPepTAO adds its
 * selection round. Methods that only evaluate record no rounds, so they and cells with nothing like them finished
 * stay untimed. Display only: the sweep runs the same without it.
 */
public final class SweepTimeLeft {
    /**
     * Keys (under {@code fedbpt.}) that change a run's numbers but not how many rows of what length a round scores:
     * the framework's, and those the methods' rules name ({@link SettingsRules#sameWorkKeys}).
     */
    static final List<String> SAME_WORK_KEYS = sameWorkKeys();
    private static final String METRICS_FILE = RunLayout.METRICS_FILE;
    private static final ObjectMapper JSON = new ObjectMapper();

    private SweepTimeLeft() {}

    /**
     * @param toRun cells the sweep will compute
     * @param toCopy cells that will take a twin's run
     * @param millis the estimated time of the timed cells to run
     * @param untimed cells to run that no finished cell times
     */
    public record Estimate(int toRun, int toCopy, long millis, int untimed) {
        /**
         * E.g. "6 cells to run, about 8 h 05 min (round times of finished runs like them); 4 to copy". When only some
         * cells are timed, the text says first how many the time covers, so it is not read as the whole sweep's.
         */
        public String text() {
            String copies = toCopy == 0 ? "" : "; " + toCopy + " to copy";
            if (toRun == 0) {
                return "nothing to run" + copies;
            }
            String cells = String.format(Locale.ROOT, "%d cell%s to run", toRun, toRun == 1 ? "" : "s");
            String about = "about " + TimeLeft.format(millis) + " (round times of finished runs like them)";
            if (untimed == toRun) {
                return cells + ", untimed: no finished run does the same work per round" + copies;
            }
            if (untimed == 0) {
                return cells + ", " + about + copies;
            }
            return String.format(Locale.ROOT, "%s: %d of them %s, %d untimed (no finished run like them)%s",
                    cells, toRun - untimed, about, untimed, copies);
        }
    }

    /** The time {@code selected}'s unfinished cells need, timed by the finished cells of {@code cells}. */
    public static Estimate of(List<Cell> cells, List<Cell> selected) {
        return of(cells, selected, List.of());
    }

    /**
     * The time {@code selected}'s unfinished cells need, timed by the finished cells of {@code cells} and the
     * finished runs of {@code elsewhere} ({@link #finishedRunsBeside}, finished by construction).
     */
    public static Estimate of(List<Cell> cells, List<Cell> selected, List<Cell> elsewhere) {
        List<Cell> finished = new ArrayList<>(cells.stream().filter(c -> c.status() == CellStatus.FINISHED).toList());
        finished.addAll(elsewhere);
        Map<String, List<Long>> roundMillis = new HashMap<>();
        Set<String> runsCounted = new HashSet<>();
        for (Cell cell : finished) {
            // A copied cell holds its twin's metrics: count each run once.
            if (runsCounted.add(cell.config().runIdentity())) {
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
            if (!cell.config().experiment().traits().runsRounds() || times.isEmpty()) {
                untimed++;
                continue;
            }
            int roundsLeft = cell.config().experiment().rounds() - roundMillis(cell.folder()).size();
            millis += Math.max(0, roundsLeft) * times.stream().mapToLong(Long::longValue).average().orElse(0);
        }
        return new Estimate(toRun, toCopy, Math.round(millis), untimed);
    }

    /**
     * The finished runs in the folders beside {@code out} (other sweeps' cells: {@code PARENT/SWEEP/RUN} with a
     * result.json), each as a cell of its stored configuration. Runs whose configuration this version cannot read
     * are left out: they would time nothing it can run.
     */
    public static List<Cell> finishedRunsBeside(Path out) {
        Path absolute = out.toAbsolutePath().normalize();
        Path parent = absolute.getParent();
        List<Cell> runs = new ArrayList<>();
        if (parent == null) {
            return runs;
        }
        for (Path sweepFolder : subfolders(parent)) {
            if (sweepFolder.equals(absolute)) {
                continue;
            }
            for (Path run : subfolders(sweepFolder)) {
                Path config = run.resolve(RunFolder.CONFIG_FILE);
                if (!RunFolder.holdsResult(run) || !Files.isRegularFile(config)) {
                    continue;
                }
                try {
                    SweepCell spec = new SweepCell(run.getFileName().toString(), run, Map.of(), List.of());
                    runs.add(new Cell(spec, ConfigLoader.loadRunFolder(config, List.of())));
                } catch (ConfigError unreadable) {
                    // e.g. a key this version no longer knows
                }
            }
        }
        return runs;
    }

    private static List<Path> subfolders(Path folder) {
        try (Stream<Path> listing = Files.list(folder)) {
            return listing.filter(Files::isDirectory).sorted().toList();
        } catch (IOException | UncheckedIOException e) {
            return List.of(); // an estimate only: an unreadable folder times nothing
        }
    }

    /** Whether the sweep will copy {@code cell}: its first twin has finished, or runs before it in this sweep. */
    private static boolean willCopy(Cell cell, List<Cell> cells, List<Cell> selected) {
        return SameRun.finishedTwin(cell, cells).isPresent()
                || SameRun.earlierTwin(cell, cells).filter(selected::contains).isPresent();
    }

    private static List<String> sameWorkKeys() {
        List<String> keys = new ArrayList<>(List.of("experiment.seed", "data.split", "data.dirichlet-alpha",
                "model.temperature", "model.projection-seed"));
        Methods.settingsRules().forEach(rules -> keys.addAll(rules.sameWorkKeys()));
        return List.copyOf(keys);
    }

    private static String workIdentity(Cell cell) {
        List<String> keys = new ArrayList<>(SAME_WORK_KEYS);
        MethodTraits traits = cell.config().experiment().traits();
        if (traits.runsRounds() && !traits.whiteBox()) {
            keys.add("experiment.method");
        }
        StringBuilder identity = new StringBuilder(cell.config().identityWithout(keys));
        MethodSettings settings = cell.config().settings();
        Methods.settingsRules().forEach(rules -> identity.append(' ').append(rules.workClass(settings)));
        return identity.toString();
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
