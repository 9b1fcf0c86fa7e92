package dev.fedbpt.cli.sweep;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fedbpt.actors.RunFolder;
import dev.fedbpt.actors.TimeLeft;
import dev.fedbpt.cli.sweep.SweepPlan.Cell;
import dev.fedbpt.config.ConfigError;
import dev.fedbpt.config.ConfigLoader;
import dev.fedbpt.config.RunFields;
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
 * How long a sweep's unfinished cells will take, from the round and evaluation times finished runs recorded in their
 * metrics.jsonl ({@code wall_ms}, and {@code eval_ms} where the run kept it; the zero-shot evaluation a new cell starts
 * with counts as one more evaluation):
 * the sweep's own finished cells and the finished runs of other sweeps beside its output folder (a probe in
 * {@code results/step-rule} is timed by the grid's runs in {@code results/paper}). A cell is timed by the finished
 * runs that do the same work per round: the same configuration up to
 * keys that change the numbers but not the rows scored ({@link #SAME_WORK_KEYS}), all black-box tuning methods alike
 * (each scores clean and, unless r_p is 0, perturbed rows of every candidate). A white-box method is timed only by
 * runs of itself: FedPrompt's input vectors lengthen every row that a prefix leaves as it is, and FedPepTAO adds its
 * selection round. Methods that only evaluate record no rounds, so they and cells with nothing like them finished
 * stay untimed. Evaluations can outweigh the rounds (an AG News FedPrompt cell spent 868 s in its 50 rounds and
 * 2,139 s in start-up and six scorings of the 7,600 test rows), so when the runs like a cell predate {@code eval_ms}
 * the text says that its evaluations are not counted. Start-up (loading the model) is not counted. Display only: the
 * sweep runs the same without it.
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
     * @param evaluationsUntimed timed cells with evaluations left whose time leaves them out: no run like them kept
     *     its evaluations' time
     */
    public record Estimate(int toRun, int toCopy, long millis, int untimed, int evaluationsUntimed) {
        /**
         * E.g. "6 cells to run, about 8 h 05 min (round and evaluation times of finished runs like them); 4 to copy".
         * When only some cells are timed, the text says first how many the time covers, so it is not read as the
         * whole sweep's; and it says in how many of them the evaluations are not counted.
         */
        public String text() {
            String copies = toCopy == 0 ? "" : "; " + toCopy + " to copy";
            if (toRun == 0) {
                return "nothing to run" + copies;
            }
            String cells = String.format(Locale.ROOT, "%d cell%s to run", toRun, toRun == 1 ? "" : "s");
            String about = "about " + TimeLeft.format(millis) + (evaluationsUntimed == 0
                    ? " (round and evaluation times of finished runs like them)"
                    : String.format(Locale.ROOT, " (round times of finished runs like them; evaluations untimed in %d "
                    + "of %s)", evaluationsUntimed, toRun - untimed == 1 ? "it" : "them"));
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
        Map<String, Measured> measured = new HashMap<>();
        Set<String> runsCounted = new HashSet<>();
        for (Cell cell : finished) {
            // A copied cell holds its twin's metrics: count each run once.
            if (runsCounted.add(cell.config().runIdentity())) {
                measured.computeIfAbsent(workIdentity(cell), key -> new Measured()).add(measured(cell.folder()));
            }
        }
        int toRun = 0;
        int toCopy = 0;
        int untimed = 0;
        int evaluationsUntimed = 0;
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
            Measured like = measured.getOrDefault(workIdentity(cell), new Measured());
            if (!cell.config().experiment().traits().runsRounds() || like.roundMillis.isEmpty()) {
                untimed++;
                continue;
            }
            int rounds = cell.config().experiment().rounds();
            int roundsDone = measured(cell.folder()).roundMillis.size();
            millis += Math.max(0, rounds - roundsDone) * mean(like.roundMillis);
            int evaluationsLeft = roundsDone == 0 ? 1 : 0; // the zero-shot evaluation before round 1
            for (int round = roundsDone + 1; round <= rounds; round++) {
                evaluationsLeft += cell.config().experiment().evaluatesAfter(round) ? 1 : 0;
            }
            if (like.evaluationMillis.isEmpty()) {
                evaluationsUntimed += evaluationsLeft > 0 ? 1 : 0;
            } else {
                millis += evaluationsLeft * mean(like.evaluationMillis);
            }
        }
        return new Estimate(toRun, toCopy, Math.round(millis), untimed, evaluationsUntimed);
    }

    private static double mean(List<Long> millis) {
        return millis.stream().mapToLong(Long::longValue).average().orElse(0);
    }

    /** The wall times a run folder's metrics.jsonl records: of its rounds, and of the evaluations that were timed. */
    static final class Measured {
        final List<Long> roundMillis = new ArrayList<>();
        final List<Long> evaluationMillis = new ArrayList<>();

        void add(Measured other) {
            roundMillis.addAll(other.roundMillis);
            evaluationMillis.addAll(other.evaluationMillis);
        }
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

    /** The wall times a folder's metrics.jsonl records; none when it is missing or unreadable. */
    static Measured measured(Path folder) {
        Path metrics = folder.resolve(METRICS_FILE);
        Measured measured = new Measured();
        if (!Files.isRegularFile(metrics)) {
            return measured;
        }
        try {
            for (String line : Files.readAllLines(metrics)) {
                JsonNode round = line.isBlank() ? null : JSON.readTree(line);
                if (round != null && round.path(RunFields.WALL_MS).isNumber()) {
                    measured.roundMillis.add(round.get(RunFields.WALL_MS).asLong());
                }
                if (round != null && round.path(RunFields.EVAL_MS).isNumber()) {
                    measured.evaluationMillis.add(round.get(RunFields.EVAL_MS).asLong());
                }
            }
        } catch (IOException e) {
            return new Measured(); // an estimate only: a metrics file being written or damaged leaves the cell untimed
        }
        return measured;
    }
}
