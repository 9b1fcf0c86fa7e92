package dev.fedbpt.cli.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.fedbpt.actors.RunFolder;
import dev.fedbpt.cli.sweep.SweepPlan.Cell;
import dev.fedbpt.config.RunLayout;
import dev.fedbpt.persistence.JournalSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The sweep's time estimate, from run folders written by hand with known round times. */
class SweepTimeLeftTest {
    @TempDir
    Path dir;

    private SweepPlan plan(String axes) throws Exception {
        return plan(axes, "", "out");
    }

    private SweepPlan plan(String axes, String set, String out) throws Exception {
        Path file = dir.resolve(out + ".conf");
        Files.writeString(file, """
                sweep {
                  out = "unused"
                  set { model.backend = "synthetic", experiment.rounds = 10, data.shots-per-class = 4 }
                  set { %s }
                  grids = [ { axes = [ %s ] } ]
                }
                """.formatted(set, axes));
        return SweepPlan.validate(SweepFile.read(file), dir.resolve(out), List.of());
    }

    private static Cell cell(SweepPlan plan, String name) {
        return plan.cells().stream().filter(c -> c.name().equals(name)).findFirst().orElseThrow();
    }

    /** A run folder of {@code cell} with these round times in its metrics; finished when it has a result. */
    private static void ran(Cell cell, boolean finished, long... roundMillis) throws Exception {
        ranEvaluated(cell, finished, -1, roundMillis);
    }

    /**
     * As {@link #ran(Cell, boolean, long...)}, each evaluated round (every third, and the last of a finished run)
     * with an evaluation of {@code evaluationMillis} (none when negative, as runs recorded before it was kept).
     */
    private static void ranEvaluated(Cell cell, boolean finished, long evaluationMillis, long... roundMillis)
            throws Exception {
        RunFolder.claim(cell.folder(), cell.config());
        StringBuilder metrics = new StringBuilder();
        for (int round = 1; round <= roundMillis.length; round++) {
            boolean evaluated = evaluationMillis >= 0 && cell.config().experiment().evaluatesAfter(round);
            metrics.append("{\"round\":").append(round).append(",\"wall_ms\":").append(roundMillis[round - 1])
                    .append(",\"eval_ms\":").append(evaluated ? String.valueOf(evaluationMillis) : "null")
                    .append("}\n");
        }
        Files.writeString(cell.folder().resolve("metrics.jsonl"), metrics);
        Files.writeString(cell.folder().resolve(finished ? RunLayout.RESULT_FILE : JournalSettings.DATABASE_FILE), "{}");
    }

    @Test
    void cellsToRunAreTimedByFinishedCellsDoingTheSameWorkAndTwinsAreCopies() throws Exception {
        SweepPlan plan = plan("""
                { name = "split", key = "data.split", values = ["iid", "dirichlet"] }
                { name = "method", key = "experiment.method", values = ["zero-shot", "fedbpt", "centralised-bbt"] }
                { name = "seed", key = "experiment.seed", prefix = "seed", values = [1, 2] }
                """);
        ran(cell(plan, "iid-zero-shot-seed1"), true);
        ran(cell(plan, "iid-fedbpt-seed1"), true, 500, 1500, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000);
        ran(cell(plan, "iid-centralised-bbt-seed1"), false, 9000, 9000, 9000, 9000);

        SweepTimeLeft.Estimate estimate = SweepTimeLeft.of(plan.cells(), plan.cells());

        // To run: iid-zero-shot-seed2 (untimed: evaluation only), 3 FedBPT cells (10 rounds of 1 s), the partial
        // centralised cell (6 rounds left) and its seed 2 (10). The dirichlet zero-shot and centralised cells copy
        // their iid twins, finished or run earlier in the sweep.
        // Those runs kept no evaluation times: the five timed cells' evaluations are left out, and said to be.
        assertEquals(new SweepTimeLeft.Estimate(6, 4, 3 * 10_000 + 6_000 + 10_000, 1, 5), estimate);
        assertEquals("6 cells to run: 5 of them about 46 s (round times of finished runs like them; evaluations "
                + "untimed in 5 of them), 1 untimed (no finished run like them); 4 to copy", estimate.text());

        List<Cell> onlySeed2 = plan.cells().stream().filter(c -> c.name().endsWith("seed2")).toList();
        assertEquals(new SweepTimeLeft.Estimate(4, 2, 3 * 10_000, 1, 3), SweepTimeLeft.of(plan.cells(), onlySeed2),
                "the dirichlet zero-shot and centralised cells copy their selected iid twins");
    }

    @Test
    void evaluationsAreTimedByTheEvaluationsOfFinishedRunsAndTheZeroShotOneCountsAsOneMore() throws Exception {
        SweepPlan plan = plan("""
                { name = "seed", key = "experiment.seed", prefix = "seed", values = [1, 2, 3] }
                """);
        assertEquals(3, plan.cells().get(0).config().experiment().evalEvery(), "the default this test counts with");
        ranEvaluated(cell(plan, "seed1"), true, 4000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000);
        ranEvaluated(cell(plan, "seed2"), false, 4000, 1000, 1000, 1000, 1000); // evaluated after round 3

        SweepTimeLeft.Estimate estimate = SweepTimeLeft.of(plan.cells(), plan.cells());

        // seed2: 6 rounds and the evaluations after rounds 6, 9 and 10. seed3: 10 rounds, the zero-shot evaluation
        // and those after rounds 3, 6, 9 and 10.
        assertEquals(new SweepTimeLeft.Estimate(2, 0, 6 * 1000 + 3 * 4000 + 10 * 1000 + 5 * 4000, 0, 0), estimate);
        assertEquals("2 cells to run, about 48 s (round and evaluation times of finished runs like them)",
                estimate.text());
    }

    @Test
    void aFinishedCellWithOtherWorkPerRoundDoesNotTimeACell() throws Exception {
        SweepPlan plan = plan("""
                { name = "rp", key = "search.perturbation-rate", prefix = "rp", values = [0, 0.5] }
                { name = "shots", key = "data.shots-per-class", prefix = "shots", values = [4, 8] }
                """);
        ran(cell(plan, "rp0-shots4"), true, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000);

        SweepTimeLeft.Estimate estimate = SweepTimeLeft.of(plan.cells(), plan.cells());

        assertEquals(new SweepTimeLeft.Estimate(3, 0, 0, 3, 0), estimate,
                "r_p 0 scores no perturbed rows, and 8 shots score twice the rows of 4");
        assertEquals("3 cells to run, untimed: no finished run does the same work per round", estimate.text());
        ran(cell(plan, "rp0.5-shots4"), true, 2000, 2000, 2000, 2000, 2000, 2000, 2000, 2000, 2000, 2000);
        assertEquals("nothing to run", SweepTimeLeft.of(plan.cells(), List.of(cell(plan, "rp0.5-shots4"))).text());
    }

    @Test
    void aWhiteBoxMethodIsTimedOnlyByRunsOfItself() throws Exception {
        SweepPlan plan = plan("""
                { name = "method", key = "experiment.method", values = ["fedprompt", "fedp-tuning"] }
                { name = "seed", key = "experiment.seed", prefix = "seed", values = [1, 2] }
                """, "model.backend = \"pytorch\"", "out");
        ran(cell(plan, "fedp-tuning-seed1"), true, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000);

        assertEquals(new SweepTimeLeft.Estimate(3, 0, 10 * 1000, 2, 1), SweepTimeLeft.of(plan.cells(), plan.cells()),
                "FedPrompt's input vectors lengthen the rows that FedP-tuning's rounds scored");
    }

    @Test
    void aProbeIsTimedByTheFinishedRunsOfTheSweepsBesideIt() throws Exception {
        String axes = """
                { name = "seed", key = "experiment.seed", prefix = "seed", values = [1, 2] }
                """;
        SweepPlan grid = plan(axes, "", "grid");
        ran(cell(grid, "seed1"), true, 3000, 3000, 3000, 3000, 3000, 3000, 3000, 3000, 3000, 3000);
        ran(cell(grid, "seed2"), false, 9000); // partial: times nothing
        // A run of another fedbpt whose configuration this one cannot read is left out.
        Path unreadable = dir.resolve("old").resolve("run");
        Files.createDirectories(unreadable);
        Files.writeString(unreadable.resolve("config.conf"), "fedbpt.search.no-such-key = 1\n");
        Files.writeString(unreadable.resolve(RunLayout.RESULT_FILE), "{}");

        SweepPlan probe = plan(axes, "search.step-rule = \"reference-code\"", "probe");
        assertEquals(new SweepTimeLeft.Estimate(2, 0, 0, 2, 0), SweepTimeLeft.of(probe.cells(), probe.cells()),
                "nothing in its own folder times it");
        List<Cell> beside = SweepTimeLeft.finishedRunsBeside(probe.out());
        assertEquals(List.of(grid.out().resolve("seed1").toAbsolutePath()),
                beside.stream().map(Cell::folder).toList());
        assertEquals(new SweepTimeLeft.Estimate(2, 0, 2 * 10 * 3000, 0, 2),
                SweepTimeLeft.of(probe.cells(), probe.cells(), beside), "the step rule changes no row scored");
        assertEquals(List.of(), SweepTimeLeft.finishedRunsBeside(grid.out()).stream()
                .filter(run -> run.folder().startsWith(grid.out().toAbsolutePath())).toList(),
                "a sweep's own cells are not counted twice");
    }
}
