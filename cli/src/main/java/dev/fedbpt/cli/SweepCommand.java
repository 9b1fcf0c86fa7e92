package dev.fedbpt.cli;

import dev.fedbpt.actors.ActiveRuns;
import dev.fedbpt.actors.ConfiguredModels;
import dev.fedbpt.actors.ExperimentRunner;
import dev.fedbpt.cli.sweep.CellStatus;
import dev.fedbpt.cli.sweep.SameRun;
import dev.fedbpt.cli.sweep.SweepFile;
import dev.fedbpt.cli.sweep.SweepIndex;
import dev.fedbpt.cli.sweep.SweepPlan.Cell;
import dev.fedbpt.cli.sweep.SweepPlan;
import dev.fedbpt.cli.sweep.SweepTimeLeft;
import dev.fedbpt.config.ConfigError;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "sweep", mixinStandardHelpOptions = true,
        description = {"Run a grid of experiments from a sweep file (see experiments/sweeps/), one after the other, "
                + "each in its own folder OUT/<cell name>.",
                "The whole sweep is validated first. Finished cells (result.json) are skipped and stopped ones "
                        + "(journal, no result) resumed, so a stopped sweep is continued by running it again. "
                        + "OUT/sweep.json lists the cells, their overrides and status."})
final class SweepCommand implements Callable<Integer> {
    private static final String INDENT = "    ";

    @Parameters(paramLabel = "FILE", description = "Sweep file (HOCON), e.g. experiments/sweeps/paper.conf.")
    Path file;

    @Option(names = "--dry-run", description = "Validate the sweep and print its plan; run nothing.")
    boolean dryRun;

    @Option(names = "--only", paramLabel = "SUBSTRING",
            description = "Run only the cells whose name contains SUBSTRING (repeatable: any of them).")
    List<String> only = new ArrayList<>();

    @Option(names = "--set", paramLabel = "KEY=VALUE", description = {
            "Override a key in every cell, after the sweep file (repeatable).",
            "This changes the cells' configurations: folders that ran with other settings are refused (status "
                    + "'changed'), so use it with a fresh --out (e.g. --set experiment.rounds=2 for a trial)."})
    List<String> overrides = new ArrayList<>();

    @Option(names = "--out", paramLabel = "DIR",
            description = "Folder of the cells (default: the sweep file's sweep.out, relative to the working directory).")
    Path out;

    @Mixin
    VerboseOption logging;

    @Override
    public Integer call() {
        logging.apply();
        SweepFile sweep = SweepFile.read(file);
        SweepPlan plan = SweepPlan.validate(sweep, out != null ? out : sweep.out(), overrides);
        List<Cell> selected = plan.select(only);
        if (selected.isEmpty()) {
            throw new ConfigError(null, "no cell of " + file + " has a name containing '"
                    + String.join("' or '", only) + "'");
        }
        printPlan(plan, selected);
        refuseChangedFolders(selected);
        return dryRun ? Main.OK : runCells(plan, selected);
    }

    private void printPlan(SweepPlan plan, List<Cell> selected) {
        Map<CellStatus, Integer> counts = SweepPlan.count(plan.cells());
        System.out.printf(Locale.ROOT, "fedbpt: sweep %s: %d cells in %s: %d finished, %d partial, %d new%s%n",
                file, plan.cells().size(), plan.out(), counts.get(CellStatus.FINISHED), counts.get(CellStatus.PARTIAL),
                counts.get(CellStatus.NEW), counts.get(CellStatus.CHANGED) == 0 ? ""
                        : ", " + counts.get(CellStatus.CHANGED) + " changed");
        if (selected.size() < plan.cells().size()) {
            System.out.printf(Locale.ROOT, "fedbpt: --only selects %d of them%n", selected.size());
        }
        for (Cell cell : plan.cells()) {
            boolean isSelected = selected.contains(cell);
            Optional<Cell> twin = cell.status() == CellStatus.NEW ? SameRun.earlierTwin(cell, plan.cells())
                    : Optional.empty();
            String sameRun = twin.map(t -> "  (same run as " + t.name() + ")").orElse("");
            System.out.printf(Locale.ROOT, "  %-9s %s%s%s%n", cell.status().text(), cell.name(), sameRun,
                    isSelected ? "" : "  (not selected)");
            if (dryRun && isSelected) {
                System.out.println(INDENT + "    " + String.join(" ", cell.spec().overrides()));
            }
        }
        printTimeLeft(plan, selected);
    }

    private static void printTimeLeft(SweepPlan plan, List<Cell> toDo) {
        System.out.println("fedbpt: sweep: "
                + SweepTimeLeft.of(plan.cells(), toDo, SweepTimeLeft.finishedRunsBeside(plan.out())).text());
    }

    private static void refuseChangedFolders(List<Cell> selected) {
        List<String> changed = selected.stream().filter(cell -> cell.status() == CellStatus.CHANGED)
                .map(cell -> cell.folder().toString()).toList();
        if (!changed.isEmpty()) {
            throw new ConfigError(null, changed.size() + " cell folder(s) hold an experiment with other settings "
                    + "(the sweep file or --set changed since they ran): " + String.join(", ", changed)
                    + "; move them away, restore the settings, or choose another --out");
        }
    }

    private static int runCells(SweepPlan plan, List<Cell> selected) {
        Map<String, String> failures = new LinkedHashMap<>();
        Path index = SweepIndex.write(plan, failures);
        int skipped = 0;
        int copied = 0;
        for (int i = 0; i < selected.size(); i++) {
            Cell cell = selected.get(i);
            String head = String.format(Locale.ROOT, "cell %d/%d %s", i + 1, selected.size(), cell.name());
            CellStatus status = cell.status();
            if (status == CellStatus.FINISHED) {
                System.out.println(head + ": finished, skipped");
                skipped++;
                continue;
            }
            Optional<Cell> twin = status == CellStatus.NEW ? SameRun.finishedTwin(cell, plan.cells())
                    : Optional.empty();
            if (twin.isPresent()) {
                try {
                    SameRun.copy(twin.get(), cell);
                    System.out.println(head + ": same run as " + twin.get().name() + " ("
                            + cell.config().experiment().method() + " does not read "
                            + String.join(", ", cell.config().experiment().traits().unreadKeys()) + "), result copied");
                    copied++;
                } catch (RuntimeException e) {
                    failures.put(cell.name(), "cannot copy the run of " + twin.get().name() + ": " + e.getMessage());
                    System.err.println("fedbpt: " + head + ": failed: " + failures.get(cell.name()));
                }
                SweepIndex.write(plan, failures);
                continue;
            }
            System.out.println(head + ": " + (status == CellStatus.PARTIAL ? "resuming" : "starting") + " in "
                    + cell.folder());
            String failure = runCell(cell, head);
            if (ActiveRuns.stopping()) { // not a failure of the cell: it resumes where it stopped
                System.out.println("fedbpt: sweep stopped by a signal in " + head + "; running the sweep again "
                        + "continues it");
                return Main.FAILURE;
            }
            if (failure != null) {
                failures.put(cell.name(), failure);
                System.err.println("fedbpt: " + head + ": failed: " + failure);
            }
            SweepIndex.write(plan, failures);
            if (i + 1 < selected.size()) {
                printTimeLeft(plan, selected.subList(i + 1, selected.size()));
            }
        }
        System.out.printf(Locale.ROOT,
                "fedbpt: sweep done: %d cells run, %d copied from the same run, %d skipped as finished, %d failed; "
                        + "see %s%n", selected.size() - skipped - copied - failures.size(), copied, skipped,
                failures.size(), index);
        return failures.isEmpty() ? Main.OK : Main.FAILURE;
    }

    /** Runs or resumes one cell; returns why it failed, or null when it finished. */
    private static String runCell(Cell cell, String head) {
        long start = System.nanoTime();
        try {
            ExperimentRunner.Outcome outcome = ExperimentRunner.run(cell.config(), cell.folder(),
                    new ConfiguredModels(), line -> System.out.println(INDENT + line));
            if (!outcome.succeeded()) {
                return outcome.failure();
            }
            Map<String, Object> result = outcome.outputs().result(outcome.outputs().finalState());
            System.out.println(head + ": finished: "
                    + RunSummary.cellLine(cell.config(), result, (System.nanoTime() - start) / 1e9));
            return null;
        } catch (RuntimeException e) {
            return e.getMessage() == null ? e.toString()
                    : e.getMessage() + (e.getCause() == null ? "" : " (" + e.getCause() + ")");
        }
    }
}
