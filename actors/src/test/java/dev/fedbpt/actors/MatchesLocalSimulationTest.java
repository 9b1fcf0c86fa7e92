package dev.fedbpt.actors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fedbpt.config.ExperimentConfig;
import dev.fedbpt.engine.data.Vocabulary;
import dev.fedbpt.engine.fedbpt.FedAvgBbtStrategy;
import dev.fedbpt.engine.fedbpt.FedBptMethod;
import dev.fedbpt.engine.method.FederatedMethod;
import dev.fedbpt.engine.method.LocalRounds;
import dev.fedbpt.inference.ScoringModel;
import dev.fedbpt.persistence.ServerState;
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

    /**
     * A method unlike CMA-ES, with token prompts, a counts round and client memory (AdamW moments kept across
     * rounds): the actors still compute what LocalRounds computes.
     */
    @Test
    void fedBbptThroughActorsEqualsTheSynchronousReference() {
        assertSameFinalMean(TestRuns.config(FED_BBPT));
        assertEquals(6.0 * 4 * 2 * 4, TestRuns.result(dir).get("final_api_calls").asDouble(),
                "rounds x prompts per step x steps per client x clients; the counts round calls nothing");
        assertTrue(TestRuns.result(dir).get("profile") == null, "FedBPT's reading is not Fed-BBPT's to record");
    }

    /** Small Fed-BBPT settings for the synthetic model: 7 rounds (a counts round, then 6), 2 steps per client. */
    static final String[] FED_BBPT = {"experiment.method=fed-bbpt", "experiment.rounds=7", "fed-bbpt.prompt-length=4",
            "fed-bbpt.candidates=12", "fed-bbpt.samples=4", "fed-bbpt.batch-size=2", "fed-bbpt.min-count=0",
            "fed-bbpt.learning-rate=0.05"};

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
        assertEquals(FedAvgBbtStrategy.Paths.RESET, ((FedAvgBbtStrategy) ((FedBptMethod) ConfiguredMethod.of(reset)).strategy()).paths());
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
                ((FedAvgBbtStrategy) ((FedBptMethod) ConfiguredMethod.of(centralised)).strategy()).paths());
    }

    private void assertSameFinalMean(ExperimentConfig config) {
        ExperimentRunner.Outcome outcome = TestRuns.run(config, dir, FaultInjector.NONE);
        assertTrue(outcome.succeeded(), outcome.failure());

        try (ScoringModel model = new ConfiguredModels().load(config)) {
            ExperimentData data = ExperimentData.prepare(config, model);
            FederatedMethod method = ConfiguredMethod.of(config);
            LocalRounds.Outcome reference = LocalRounds.run(method, config.experiment().seed(),
                    config.experiment().rounds(), config.federation().sampleFraction(), data.clients(),
                    new Vocabulary(model.vocabularySize(), model.specialTokenIds()),
                    (prompt, rows) -> model.score(rows.stream()
                            .map(row -> InferencePool.modelInput(prompt, row)).toList()),
                    false);
            assertEquals(ServerState.fingerprint(method.evaluationPrompt(reference.last())),
                    TestRuns.result(dir).get("global_mean_sha256").asText());
        }
    }
}
