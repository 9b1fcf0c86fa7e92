package dev.fedbpt.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GroupingTest {
    @TempDir
    Path dir;

    @Test
    void seedsAndNamesDoNotSplitASeriesButAVaryingParameterDoes() {
        List<RunRecord> runs = List.of(
                RunRecord.read(FakeRuns.run(dir.resolve("a"), "sst2", "iid", "fedbpt", 1, 0.5, 2, 2, 0.7, true)),
                RunRecord.read(FakeRuns.run(dir.resolve("b"), "sst2", "iid", "fedbpt", 2, 0.5, 2, 2, 0.7, true)),
                RunRecord.read(FakeRuns.run(dir.resolve("c"), "sst2", "iid", "fedbpt", 1, 0.25, 2, 2, 0.7, true)),
                RunRecord.read(FakeRuns.run(dir.resolve("d"), "sst2", "iid", "fedavg-bbt", 1, 0.5, 2, 2, 0.7, true)));
        Grouping grouping = Grouping.of(runs);
        assertEquals(List.of("search.perturbation-rate"), grouping.varyingKeys());
        assertEquals(List.of("fedavg-bbt", "fedbpt r_p=0.25", "fedbpt r_p=0.5"),
                grouping.series().stream().map(Series::label).toList());
        assertEquals(List.of("1", "2"), grouping.series().get(2).runs().stream().map(RunRecord::seed).toList());
    }

    @Test
    void baselinesComeFirstThenCentralisedReferencesThenFederatedMethods() {
        List<String> methods = List.of("fedbpt", "bdpl", "icl", "an-old-method", "fed-bbpt", "zero-shot",
                "centralised-bbt", "fedavg-bbt");
        List<RunRecord> runs = new java.util.ArrayList<>();
        for (String method : methods) {
            runs.add(RunRecord.read(FakeRuns.run(dir.resolve(method), "sst2", "iid", method, 1, 0.5, 2, 2, 0.7,
                    true)));
        }
        assertEquals(List.of("zero-shot", "icl", "bdpl", "centralised-bbt", "fed-bbpt", "fedavg-bbt", "fedbpt",
                "an-old-method"), Grouping.of(runs).series().stream().map(Series::method).toList());
    }

    @Test
    void aKeyThatARunFolderPredatesCountsAsItsDefaultNotAsAVaryingParameter() {
        Path older = FakeRuns.run(dir.resolve("older"), "ag-news", "dirichlet", "fedavg-bbt", 1, 0.5, 2, 2, 0.7, true);
        Path newer = FakeRuns.run(dir.resolve("newer"), "ag-news", "dirichlet", "fedavg-bbt", 2, 0.5, 2, 2, 0.7, true);
        Path reset = FakeRuns.run(dir.resolve("reset"), "ag-news", "dirichlet", "fedavg-bbt", 1, 0.5, 2, 2, 0.7, true);
        FakeRuns.setKey(newer, "search.fedavg-paths", "average");
        FakeRuns.setKey(reset, "search.fedavg-paths", "reset");

        RunRecord olderRun = RunRecord.read(older);
        assertEquals("average", olderRun.settings().get("search.fedavg-paths"));
        assertEquals(List.of(), Grouping.of(List.of(olderRun, RunRecord.read(newer))).varyingKeys());

        Grouping withReset = Grouping.of(List.of(olderRun, RunRecord.read(newer), RunRecord.read(reset)));
        assertEquals(List.of("search.fedavg-paths"), withReset.varyingKeys());
        assertEquals(List.of(2, 1), withReset.series().stream().map(s -> s.runs().size()).toList());
    }

    @Test
    void aProfileIsNamedInsteadOfTheItemsItSetsUnlessAnItemIsSetOnItsOwn() {
        Path paper = FakeRuns.run(dir.resolve("paper"), "sst2", "iid", "fedbpt", 1, 0.5, 2, 2, 0.7, true);
        Path reference1 = referenceCode(FakeRuns.run(dir.resolve("ref1"), "sst2", "iid", "fedbpt", 1, 0.5, 2, 2, 0.7,
                true));
        Path reference2 = referenceCode(FakeRuns.run(dir.resolve("ref2"), "sst2", "iid", "fedbpt", 2, 0.5, 2, 2, 0.7,
                true));
        Path fedAvg = referenceCode(FakeRuns.run(dir.resolve("avg"), "sst2", "iid", "fedavg-bbt", 1, 0.5, 2, 2, 0.7,
                true));
        List<RunRecord> byProfile = List.of(RunRecord.read(paper), RunRecord.read(reference1),
                RunRecord.read(reference2), RunRecord.read(fedAvg));

        Grouping grouping = Grouping.of(byProfile);
        assertEquals(List.of("search.profile"), grouping.varyingKeys());
        assertEquals(List.of("fedavg-bbt", "fedbpt profile=paper", "fedbpt profile=reference-code"),
                grouping.series().stream().map(Series::label).toList());
        assertEquals(List.of(1, 2), grouping.series().stream().skip(1).map(s -> s.runs().size()).toList());

        // A reference-code run whose clients rank by the clean loss: the item no longer follows the profile.
        Path cleanLoss = FakeRuns.run(dir.resolve("clean"), "sst2", "iid", "fedbpt", 1, 0.5, 2, 2, 0.7, true);
        FakeRuns.setKey(referenceCode(cleanLoss), "search.client-ranking", "clean-loss");
        List<RunRecord> withOverride = new java.util.ArrayList<>(byProfile);
        withOverride.add(RunRecord.read(cleanLoss));
        assertEquals(List.of("search.client-ranking", "search.profile"), Grouping.of(withOverride).varyingKeys());
    }

    /** Writes the values a stored reference-code configuration holds (every item resolved) into a fake run. */
    private static Path referenceCode(Path run) {
        Map.of("profile", "reference-code", "step-rule", "reference-code", "server-cmaes", "pycma",
                "cmaes-variant", "pycma", "client-start", "light-copy", "client-ranking", "ratio-fitness",
                "perturbation-mask", "per-round", "fedavg-weights", "uniform", "fedavg-paths", "reset")
                .forEach((key, value) -> FakeRuns.setKey(run, "search." + key, value));
        FakeRuns.setKey(run, "model.prompt-injection", "add-after-layernorm");
        return run;
    }

    @Test
    void runFolderReadsSettingsMetricsAndResult() {
        RunRecord run = RunRecord.read(FakeRuns.run(dir.resolve("r"), "ag-news", "dirichlet", "fedbpt", 7, 0.5, 3, 5,
                0.6, true));
        assertEquals("ag-news", run.task());
        assertEquals("dirichlet", run.split());
        assertEquals("7", run.seed());
        assertEquals(5, run.plannedRounds());
        assertEquals(3, run.roundsCompleted());
        assertEquals(3, run.rows().size());
        assertEquals(0.6, run.finalAccuracy(), 1e-12);
        assertEquals(2020160L, run.rows().get(0).bytesTotal());
        assertEquals(null, run.rows().get(0).testAccuracy());
    }

    @Test
    void statsUseTheSampleStandardDeviation() {
        Stats stats = Stats.of(List.of(1.0, 2.0, 4.0));
        assertEquals(7.0 / 3, stats.mean(), 1e-12);
        assertEquals(Math.sqrt((16.0 / 9 + 1.0 / 9 + 25.0 / 9) / 2), stats.std(), 1e-12);
        assertEquals(1, Stats.of(List.of(3.0)).count());
        assertEquals(true, Double.isNaN(Stats.of(List.of(3.0)).std()));
    }
}
