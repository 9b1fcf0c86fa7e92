package dev.fedbpt.cli.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fedbpt.config.ExperimentConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Expanding a sweep file into cells: names, folders, order, and the order overrides apply in. */
class SweepPlanTest {
    @TempDir
    Path dir;

    static final String SWEEP = """
            small { label = "small", set { data.shots-per-class = 4, federation.clients = 2 } }
            sweep {
              out = "unused"
              base = "base.conf"
              set { experiment.rounds = 3, model.backend = "synthetic" }
              grids = [
                { axes = [
                    { name = "data", values = [${small}, { label = "big", set { data.shots-per-class = 8 } }] }
                    { name = "method", key = "experiment.method", values = ["fedbpt", "fedavg-bbt"] }
                    { name = "seed", key = "experiment.seed", prefix = "seed", values = [1, 2] }
                  ] }
                { set { data.split = "dirichlet" }
                  axes = [
                    { name = "data", values = [${small}] }
                    { name = "rp", key = "search.perturbation-rate", prefix = "rp", values = [0, 0.2] }
                  ] }
              ]
            }
            """;

    private SweepFile write(String text) throws Exception {
        Files.writeString(dir.resolve("base.conf"), "fedbpt.experiment.rounds = 7\n");
        Path file = dir.resolve("sweep.conf");
        Files.writeString(file, text);
        return SweepFile.read(file);
    }

    @Test
    void productOfEachGridThenTheNextGridFirstAxisOutermost() throws Exception {
        SweepFile sweep = write(SWEEP);
        assertEquals(dir.resolve("base.conf").toAbsolutePath().normalize(), sweep.base());
        List<SweepCell> cells = SweepPlan.expand(sweep, dir.resolve("out"), List.of());
        assertEquals(List.of(
                "small-fedbpt-seed1", "small-fedbpt-seed2", "small-fedavg-bbt-seed1", "small-fedavg-bbt-seed2",
                "big-fedbpt-seed1", "big-fedbpt-seed2", "big-fedavg-bbt-seed1", "big-fedavg-bbt-seed2",
                "small-rp0", "small-rp0.2"), cells.stream().map(SweepCell::name).toList());
        assertEquals(dir.resolve("out").resolve("big-fedbpt-seed2"), cells.get(5).folder());
        assertEquals(Map.of("data", "small", "rp", "rp0.2"), cells.get(9).labels());
        assertEquals(List.of("data", "rp"), List.copyOf(cells.get(9).labels().keySet()));
    }

    @Test
    void overridesApplySweepSetGridSetAxesNameThenCommandLine() throws Exception {
        List<SweepCell> cells = SweepPlan.expand(write(SWEEP), dir.resolve("out"), List.of("fedbpt.experiment.rounds=2"));
        assertEquals(List.of(
                "experiment.rounds=3", "model.backend=\"synthetic\"",
                "data.split=\"dirichlet\"",
                "data.shots-per-class=4", "federation.clients=2",
                "search.perturbation-rate=0.2",
                "experiment.name=\"small-rp0.2\"",
                "experiment.rounds=2"), cells.get(9).overrides());
        assertEquals("grid 2, axis 'rp', value 'rp0.2'", cells.get(9).settings().get(5).source());
    }

    @Test
    void everyCellLoadsWithItsOverridesWinningOverTheBase() throws Exception {
        SweepPlan plan = SweepPlan.validate(write(SWEEP), dir.resolve("out"), List.of());
        assertEquals(10, plan.cells().size());
        ExperimentConfig ablation = plan.cells().get(9).config();
        assertEquals("small-rp0.2", ablation.experiment().name());
        assertEquals(3, ablation.experiment().rounds());
        assertEquals(0.2, ablation.settings().number("search.perturbation-rate"));
        assertEquals(ExperimentConfig.Split.DIRICHLET, ablation.data().split());
        ExperimentConfig big = plan.cells().get(6).config();
        assertEquals("fedavg-bbt", big.experiment().method());
        assertEquals(1, big.experiment().seed());
        assertEquals(8, big.data().shotsPerClass());
        assertEquals(ExperimentConfig.Split.IID, big.data().split());
        assertEquals(CellStatus.NEW, plan.cells().get(0).status());
        assertEquals(List.of("small-rp0", "small-rp0.2"),
                plan.select(List.of("rp")).stream().map(SweepPlan.Cell::name).toList());
    }

    @Test
    void shippedSweepFilesExpandToTheirGrids() {
        Path sweeps = Path.of("..", "experiments", "sweeps");
        List<SweepCell> paper = SweepPlan.expand(SweepFile.read(sweeps.resolve("paper.conf")), Path.of("out"), List.of());
        assertEquals(2 * 2 * 5 * 2 + 10, paper.size(), "datasets x splits x methods x seeds, and the r_p ablation");
        assertEquals("sst2-iid-zero-shot-seed1", paper.get(0).name());
        assertEquals("sst2-iid-icl-seed1", paper.get(2).name());
        assertEquals("sst2-dirichlet-fedbpt-rp0.2-seed1", paper.get(20 + 2).name()); // after SST-2's 20 cells
        assertEquals("agnews-iid-zero-shot-seed1", paper.get(20 + 10).name()); // AG News after the ablation
        SweepPlan smoke = SweepPlan.validate(SweepFile.read(sweeps.resolve("smoke.conf")), dir, List.of());
        assertEquals(List.of("fedbpt-seed1", "fedbpt-seed2", "fedavg-bbt-seed1", "fedavg-bbt-seed2"),
                smoke.cells().stream().map(SweepPlan.Cell::name).toList());
    }

    @Test
    void everyShippedSweepFileHasValidCells() throws IOException {
        List<Path> files;
        try (var listing = Files.list(Path.of("..", "experiments", "sweeps"))) {
            files = listing.filter(f -> f.toString().endsWith(".conf")).sorted().toList();
        }
        assertTrue(files.size() >= 6, "found " + files);
        for (Path file : files) {
            SweepPlan plan = SweepPlan.validate(SweepFile.read(file), dir.resolve(file.getFileName().toString()),
                    List.of());
            assertFalse(plan.cells().isEmpty(), file + " has no cells");
        }
    }
}
