package dev.fedbpt.actors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fedbpt.config.ExperimentConfig;
import dev.fedbpt.engine.fedbpt.Digests;
import dev.fedbpt.engine.fedbpt.FedAvgBbtStrategy;
import dev.fedbpt.engine.fedbpt.LocalSimulation;
import dev.fedbpt.engine.fedbpt.SimulationConfig;
import dev.fedbpt.engine.fedbpt.SimulationResult;
import dev.fedbpt.engine.fedbpt.Vocabulary;
import dev.fedbpt.inference.ScoreRow;
import dev.fedbpt.inference.ScoringModel;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The actor system must compute exactly what the engine's synchronous reference computes: batching, message order
 * and concurrency change nothing. Checked for both strategies, with half the clients sampled each round.
 */
class MatchesLocalSimulationTest {
    @TempDir
    Path dir;

    @Test
    void fedBptThroughActorsEqualsTheSynchronousReference() {
        assertSameFinalMean(TestRuns.config("federation.sample-fraction=0.5", "federation.quorum=1.0"));
    }

    @Test
    void fedAvgBbtThroughActorsEqualsTheSynchronousReference() {
        assertSameFinalMean(TestRuns.config("experiment.method=fedavg-bbt", "search.perturbation-rate=0.3"));
    }

    @Test
    void theReferenceCodeProfileThroughActorsEqualsTheSynchronousReference() {
        ExperimentConfig reference = TestRuns.config("search.profile=reference-code",
                "federation.sample-fraction=0.5", "federation.quorum=1.0");
        assertSameFinalMean(reference);
        assertEquals("reference-code", TestRuns.result(dir).get("profile").asText());
        assertEquals("pycma", TestRuns.result(dir).get("reading").get("search.cmaes-variant").asText());
        String referenceHash = TestRuns.result(dir).get("global_mean_sha256").asText();
        assertTrue(TestRuns.run(TestRuns.config("federation.sample-fraction=0.5", "federation.quorum=1.0"),
                dir.resolve("paper"), FaultInjector.NONE).succeeded());
        assertNotEquals(referenceHash, TestRuns.result(dir.resolve("paper")).get("global_mean_sha256").asText(),
                "the profiles compute different runs");
    }

    @Test
    void fedAvgBbtUnderTheReferenceCodeProfileThroughActorsEqualsTheSynchronousReference() {
        assertSameFinalMean(TestRuns.config("search.profile=reference-code", "experiment.method=fedavg-bbt"));
    }

    @Test
    void theMirroredActiveVariantIsWiredThroughToTheClients() {
        ExperimentConfig mirrored = TestRuns.config("search.cmaes-variant=mirrored-active");
        assertSameFinalMean(mirrored);
        assertEquals("mirrored-active", TestRuns.result(dir).get("cmaes_variant").asText());
        String mirroredHash = TestRuns.result(dir).get("global_mean_sha256").asText();
        assertTrue(TestRuns.run(TestRuns.config(), dir.resolve("tutorial"), FaultInjector.NONE).succeeded());
        assertNotEquals(mirroredHash, TestRuns.result(dir.resolve("tutorial")).get("global_mean_sha256").asText(),
                "the variant changes the clients' search");
    }

    @Test
    void fedAvgBbtWithResetPathsIsWiredThroughToTheServerButNotToCentralisedBbt() {
        ExperimentConfig reset = TestRuns.config("experiment.method=fedavg-bbt", "search.fedavg-paths=reset");
        assertEquals(FedAvgBbtStrategy.Paths.RESET, ((FedAvgBbtStrategy) ExperimentRunner.strategy(reset)).paths());
        assertSameFinalMean(reset);
        String resetHash = TestRuns.result(dir).get("global_mean_sha256").asText();
        assertTrue(TestRuns.run(TestRuns.config("experiment.method=fedavg-bbt"), dir.resolve("average"),
                FaultInjector.NONE).succeeded());
        assertNotEquals(resetHash, TestRuns.result(dir.resolve("average")).get("global_mean_sha256").asText(),
                "resetting the paths changes the run");

        // Centralised BBT is one search continued round after round: its single client's paths always carry on.
        ExperimentConfig centralised = TestRuns.config("experiment.method=centralised-bbt",
                "search.fedavg-paths=reset");
        assertEquals(FedAvgBbtStrategy.Paths.AVERAGE,
                ((FedAvgBbtStrategy) ExperimentRunner.strategy(centralised)).paths());
    }

    private void assertSameFinalMean(ExperimentConfig config) {
        ExperimentRunner.Outcome outcome = TestRuns.run(config, dir, FaultInjector.NONE);
        assertTrue(outcome.succeeded(), outcome.failure());

        try (ScoringModel model = new ConfiguredModels().load(config)) {
            ExperimentData data = ExperimentData.prepare(config, model);
            SimulationConfig simulation = new SimulationConfig(config.experiment().seed(), config.experiment().rounds(),
                    config.federation().clients(), config.federation().sampleFraction(), config.search().dimension(),
                    config.search().sigma0(), ExperimentRunner.searchConfig(config), ExperimentRunner.strategy(config));
            SimulationResult reference = LocalSimulation.run(simulation, data.clients(),
                    new Vocabulary(model.vocabularySize(), model.specialTokenIds()),
                    (z, rows) -> model.score(rows.stream().map(row -> new ScoreRow(z, row)).toList()));
            assertEquals(Digests.sha256(reference.last().cmaes().mean()),
                    TestRuns.result(dir).get("global_mean_sha256").asText());
        }
    }
}
