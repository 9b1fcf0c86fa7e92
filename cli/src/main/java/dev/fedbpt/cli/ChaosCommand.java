package dev.fedbpt.cli;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import dev.fedbpt.cli.chaos.ChaosGrid;
import dev.fedbpt.cli.chaos.ChaosRow;
import dev.fedbpt.cli.chaos.ChaosRunner;
import dev.fedbpt.cli.chaos.ChaosSetting;
import dev.fedbpt.config.ConfigError;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "chaos", mixinStandardHelpOptions = true,
        description = {"Run a short experiment under a grid of fault settings (client drops 10-50%%, client crashes, "
                + "score corruption, worker crashes, SIGKILL + resume, late answers) and print what happened: faults "
                + "injected, rounds completed and re-sampled, results rejected, and whether the final global mean "
                + "equals the fault-free-equivalent run's (the same seed and content faults, without worker "
                + "crashes, kills and delays) where it should.",
                "Exit code 0 when every such hash matched and no run failed (a run that stops because a round "
                        + "reached no quorum is a legitimate outcome), else 1."})
final class ChaosCommand implements Callable<Integer> {
    /** The short synthetic experiment chaos runs unless --config names another. */
    static final List<String> SHORT_EXPERIMENT = List.of("experiment.name=chaos", "model.backend=synthetic",
            "federation.clients=8", "search.dimension=32", "search.local-iterations=3", "experiment.rounds=6",
            "experiment.eval-every=3", "data.shots-per-class=8", "federation.round-deadline=2s",
            "federation.quorum=0.5");

    @Option(names = "--trials", paramLabel = "N", defaultValue = "1",
            description = "Run every setting N times, with seeds S, S+1, ... (S: experiment.seed; default ${DEFAULT-VALUE}).")
    int trials;

    @Option(names = "--config", paramLabel = "FILE",
            description = "Chaos-test this experiment instead of the built-in short synthetic one.")
    Path config;

    @Option(names = "--set", paramLabel = "KEY=VALUE",
            description = "Override a key of the experiment (repeatable); faults.* are set by each setting.")
    List<String> overrides = new ArrayList<>();

    @Option(names = "--only", paramLabel = "SETTING",
            description = "Run only this setting, by its name as printed, e.g. --only 'drop 25%%' (repeatable).")
    List<String> only = new ArrayList<>();

    @Option(names = "--out", paramLabel = "DIR", description = "Folder of the runs (default: runs/chaos-<time>).")
    Path out;

    @Option(names = "--json", description = "Print a JSON list of rows instead of the table.")
    boolean json;

    @Mixin
    VerboseOption logging;

    @Override
    public Integer call() throws IOException {
        logging.apply();
        if (!logging.verbose) { // injected faults log a warning each; the table counts them
            ((Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME)).setLevel(Level.ERROR);
        }
        if (trials < 1) {
            throw new ConfigError(null, "--trials must be at least 1, not " + trials);
        }
        List<ChaosSetting> grid;
        try {
            grid = ChaosGrid.select(only);
        } catch (IllegalArgumentException e) {
            throw new ConfigError(null, e.getMessage());
        }
        Path directory = out != null ? out : Runs.newFolder("chaos-");
        if (Files.isDirectory(directory)) {
            try (Stream<Path> entries = Files.list(directory)) {
                if (entries.findAny().isPresent()) {
                    throw new ConfigError(null, "--out " + directory + " is not empty; chaos runs need a fresh folder");
                }
            }
        }
        List<String> all = new ArrayList<>(config == null ? SHORT_EXPERIMENT : List.of());
        all.addAll(overrides);
        // Progress goes to stderr with --json, so that stdout is the JSON alone.
        var progress = json ? System.err : System.out;
        progress.printf(Locale.ROOT, "fedbpt: chaos: %d settings x %d trial(s) in %s%n", grid.size(), trials,
                directory.toAbsolutePath());
        long start = System.nanoTime();
        List<ChaosRow> rows = new ChaosRunner(config, all, directory, line -> progress.println("  " + line))
                .run(grid, trials);
        double seconds = (System.nanoTime() - start) / 1e9;
        if (json) {
            System.out.println(Json.write(rows.stream().map(ChaosRow::toJson).toList()));
        } else {
            printTable(rows);
        }
        List<String> failures = rows.stream().filter(row -> row.failure() != null)
                .map(row -> row.setting() + " (trial " + row.trial() + "): " + row.failure()).toList();
        progress.printf(Locale.ROOT, "fedbpt: chaos: %d rows in %.0f s; %s%n", rows.size(), seconds,
                failures.isEmpty() ? "every hash that should match the fault-free-equivalent run did"
                        : failures.size() + " row(s) failed");
        failures.forEach(failure -> System.err.println("fedbpt: chaos: FAILED " + failure));
        return failures.isEmpty() ? Main.OK : Main.FAILURE;
    }

    private static void printTable(List<ChaosRow> rows) {
        int width = Math.max("setting".length(), rows.stream().mapToInt(row -> row.setting().length()).max().orElse(0));
        String format = "%-" + width + "s  %5s  %15s  %16s  %17s  %16s  %4s  %5s  %19s  %10s  %6s  %s%n";
        System.out.printf(Locale.ROOT, format, "setting", "trial", "faults injected", "rounds completed",
                "rounds re-sampled", "results rejected", "late", "kills", "hash expected equal", "hash equal",
                "wall s", "stopped");
        for (ChaosRow row : rows) {
            System.out.printf(Locale.ROOT, format, row.setting(), row.trial(), row.faultsInjected(),
                    row.roundsCompleted() + "/" + row.rounds(), row.roundsResampled(), row.resultsRejected(),
                    row.resultsLate(), row.kills(), yesNo(row.hashExpectedEqual()), yesNo(row.hashEqual()),
                    String.format(Locale.ROOT, "%.1f", row.wallSeconds()), row.stoppedShort());
        }
    }

    private static String yesNo(boolean value) {
        return value ? "yes" : "no";
    }
}
