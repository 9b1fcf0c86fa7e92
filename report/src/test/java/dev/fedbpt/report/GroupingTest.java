package dev.fedbpt.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
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

    @Test
    void aMethodWithoutAProfileIsNeitherSplitNorLabelledNorTabledByOne() throws IOException {
        Path paper = FakeRuns.run(dir.resolve("paper"), "sst2", "iid", "fedbpt", 1, 0.5, 2, 2, 0.7, true);
        Path reference = referenceCode(FakeRuns.run(dir.resolve("ref"), "sst2", "iid", "fedbpt", 1, 0.5, 2, 2, 0.72,
                true));
        // Fed-BBPT reads no profile: one of its cells was run under reference-code all the same (the grid's value).
        Path bbptPaper = FakeRuns.run(dir.resolve("bbpt1"), "sst2", "iid", "fed-bbpt", 1, 0.5, 2, 2, 0.6, true);
        Path bbptReference = referenceCode(FakeRuns.run(dir.resolve("bbpt2"), "sst2", "iid", "fed-bbpt", 2, 0.5, 2, 2,
                0.62, true));
        Path zeroShot = FakeRuns.run(dir.resolve("zero"), "sst2", "iid", "zero-shot", 1, 0.5, 0, 0, 0.69, true);
        // A FedBPT run from before result.json recorded the profile has one all the same.
        Path result = paper.resolve("result.json");
        FakeRuns.write(result, Files.readString(result).replace("\"profile\":\"paper\",", ""));
        List<RunRecord> runs = List.of(RunRecord.read(paper), RunRecord.read(reference), RunRecord.read(bbptPaper),
                RunRecord.read(bbptReference), RunRecord.read(zeroShot));
        assertEquals("reference-code", runs.get(1).profile(), "result.json records FedBPT's profile");
        assertEquals(null, runs.get(0).profile());
        assertEquals(null, runs.get(2).profile());

        Grouping grouping = Grouping.of(runs);
        assertEquals(List.of("search.profile"), grouping.varyingKeys());
        assertEquals(List.of("zero-shot", "fed-bbpt", "fedbpt profile=paper", "fedbpt profile=reference-code"),
                grouping.series().stream().map(Series::label).toList());
        Series fedBbpt = grouping.series().get(1);
        assertEquals(2, fedBbpt.runs().size(), "the profile does not split Fed-BBPT's seeds");
        assertEquals(Map.of(), fedBbpt.parameters());

        Table table = Tables.results(grouping);
        int profile = table.header().indexOf("profile");
        assertEquals(List.of("n/a", "n/a", "paper", "reference-code"),
                table.rows().stream().map(row -> row.get(profile)).toList());
        // The profile's ablation compares FedBPT's two readings only.
        assertEquals(List.of("fedbpt"), Ablation.of(grouping).get(0).rows().stream()
                .map(row -> row.coordinates().get(2)).toList());
    }

    @Test
    void aMethodThisFedbptNoLongerKnowsHasAProfileWhenItsResultsRecordOne() {
        Path one = FakeRuns.run(dir.resolve("one"), "sst2", "iid", "an-old-method", 1, 0.5, 2, 2, 0.7, true);
        Path two = FakeRuns.run(dir.resolve("two"), "sst2", "iid", "an-old-method", 1, 0.5, 2, 2, 0.7, true);
        for (Path run : List.of(one, two)) {
            FakeRuns.write(run.resolve("result.json"), "{\"method\":\"an-old-method\",\"profile\":\"paper\","
                    + "\"final_accuracy\":0.7}");
        }
        FakeRuns.setKey(two, "search.profile", "reference-code");
        assertEquals(List.of("an-old-method profile=paper", "an-old-method profile=reference-code"),
                Grouping.of(List.of(RunRecord.read(one), RunRecord.read(two))).series().stream().map(Series::label)
                        .toList());
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
