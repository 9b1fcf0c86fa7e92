package dev.fedbpt.actors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fedbpt.config.ConfigError;
import dev.fedbpt.config.ExperimentConfig;
import dev.fedbpt.engine.data.Vocabulary;
import dev.fedbpt.engine.method.FederatedMethod;
import dev.fedbpt.engine.method.LocalRounds;
import dev.fedbpt.inference.ScoringModel;
import dev.fedbpt.persistence.ServerState;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * DLS-EC through the actors, one client per domain and one domain held out: the same states as the engine's
 * synchronous reference, a personalisation round that scores every client on its own test rows, the measured
 * message sizes in metrics.jsonl, and outputs rebuilt from the journal alone.
 */
class DlsEcRunTest {
    private static final int ROUNDS = 3;

    @TempDir
    Path dir;

    @Test
    void actorsComputeTheSynchronousReferenceAndReportPAndNp() throws IOException {
        DomainFiles.write(dir);
        ExperimentConfig config = TestRuns.config(DomainFiles.dlsEc(dir, ROUNDS));
        Path run = dir.resolve("run");
        JsonNode result = assertActorsComputeLocalRounds(config, run, ROUNDS + 1);
        assertEquals(ROUNDS + 1, result.get("rounds_completed").asInt(), "the personalisation round follows");
        List<JsonNode> rows = TestRuns.metrics(run);
        assertEquals(ROUNDS + 1, rows.size());
        for (int t = 0; t < ROUNDS; t++) {
            assertEquals(3, rows.get(t).get("sampled").asInt(), "the held-out domain takes no part");
            assertEquals(5 * 16.0, rows.get(t).get("uplink_bits").asDouble(), "T x 16 bits");
            // Counted from the encoded messages: the paper's bytes after the framework's header.
            assertEquals(3 * (5 * 2 + 25), rows.get(t).get("bytes_up").asLong(),
                    "3 clients x (5 ids x 2 bytes + round, client, loss, samples, count)");
            if (t > 0) {
                assertEquals(3 * (5 * 3 * 4 + 10 + 48), rows.get(t).get("bytes_down").asLong(), "3 clients x (5"
                        + " positions x Phi 3 x (2-byte id + fp16 coefficient) + 10-byte header + round update's 48)");
            } else {
                assertTrue(rows.get(t).get("bytes_down").asLong() > 3 * (5 * 3 * 4 + 10 + 48),
                        "the first round sends the whole prompt");
            }
        }
        assertEquals(4, rows.get(ROUNDS).get("sampled").asInt(), "every domain is post-tuned and scored");
        assertTrue(rows.get(ROUNDS).get("np_accuracy").isNumber());
        assertEquals(3.0, rows.get(ROUNDS).get("post_tuning_dev_evaluations").asDouble(),
                "12 forward calls on the held-apart rows, a dev evaluation every 4");

        // Rebuilt from the journal alone: the same outputs.
        String metricsFile = Files.readString(run.resolve("metrics.jsonl"));
        Files.delete(run.resolve("metrics.jsonl"));
        Files.delete(run.resolve("result.json"));
        assertNull(TestRuns.run(config, run).failure());
        assertEquals(metricsFile, Files.readString(run.resolve("metrics.jsonl")));
        assertEquals(result.get("final_np_accuracy"), TestRuns.result(run).get("final_np_accuracy"));
    }

    /** The BBT baselines through the same seam: BBT alone (the personalisation round only) and BBT(Fed). */
    @Test
    void theBbtBaselinesThroughActorsComputeTheSynchronousReference() {
        DomainFiles.write(dir);
        String[] small = {"dls-ec.post-tuning.budget=8", "bbt.budget=8", "dls-ec.local-steps=2"};
        ExperimentConfig alone = TestRuns.config(TestRuns.concat(TestRuns.concat(DomainFiles.dlsEc(dir, 2), small),
                "experiment.method=bbt"));
        JsonNode aloneResult = assertActorsComputeLocalRounds(alone, dir.resolve("bbt"), 1);
        assertTrue(aloneResult.get("final_np_accuracy").isNumber());
        ExperimentConfig fed = TestRuns.config(TestRuns.concat(TestRuns.concat(DomainFiles.dlsEc(dir, 2), small),
                "experiment.method=bbt-fed"));
        assertActorsComputeLocalRounds(fed, dir.resolve("bbt-fed"), 3);
        assertEquals(8 * 16.0, TestRuns.metrics(dir.resolve("bbt-fed")).get(0).get("uplink_bits").asDouble(),
                "d = 8 fp16 values, 16 bits each");
    }

    /** Runs {@code config} through the actors and LocalRounds; the same prompt and P / NP; returns result.json. */
    private static JsonNode assertActorsComputeLocalRounds(ExperimentConfig config, Path run, int serverRounds) {
        ExperimentRunner.Outcome outcome = TestRuns.run(config, run);
        assertNull(outcome.failure());
        JsonNode result = TestRuns.result(run);
        ModelBinding binding = new ModelBinding();
        try (ScoringModel model = new ConfiguredModels().load(config)) {
            binding.bind(model);
            ExperimentData data = ExperimentData.prepare(config, model);
            FederatedMethod method = ConfiguredMethod.of(config, binding);
            LocalRounds.Outcome reference = LocalRounds.run(method, config.experiment().seed(), serverRounds,
                    config.federation().sampleFraction(), data.clients(), data.clientTests(), data.clientHeldApart(),
                    data.participation(),
                    new Vocabulary(model.vocabularySize(), model.specialTokenIds()),
                    (prompt, rows) -> model.score(rows.stream()
                            .map(row -> InferencePool.modelInput(prompt, row)).toList()), false);
            assertEquals(ServerState.fingerprint(method.evaluationPrompt(reference.last())),
                    result.get("global_mean_sha256").asText());
            Map<String, Double> metrics = method.metrics(reference.last());
            assertEquals(metrics.get("p_accuracy"), result.get("final_p_accuracy").asDouble());
            assertEquals(metrics.get("np_accuracy"), result.get("final_np_accuracy").asDouble());
        }
        assertEquals(serverRounds, result.get("rounds_completed").asInt());
        return result;
    }

    @Test
    void aDirichletSplitGivesEveryClientTestRowsWithItsOwnLabelSkewAndHoldsOutTheLastClients() {
        ExperimentConfig config = TestRuns.config("experiment.method=dls-ec", "experiment.rounds=2",
                "data.split=dirichlet", "data.dirichlet-alpha=0.4", "federation.held-out-clients=1",
                "dls-ec.prompt-length=4", "dls-ec.local-steps=2", "dls-ec.post-tuning.dimension=4",
                "dls-ec.post-tuning.population=4", "dls-ec.post-tuning.budget=8", "dls-ec.first-token=2000",
                "dls-ec.post-tuning.shots-per-class=4", "dls-ec.post-tuning.eval-every=4");
        Path run = dir.resolve("dirichlet");
        assertNull(TestRuns.run(config, run).failure());
        List<JsonNode> rows = TestRuns.metrics(run);
        assertEquals(List.of(3, 3, 4), rows.stream().map(row -> row.get("sampled").asInt()).toList(),
                "client 3 is held out of the federated rounds and joins the last");
        assertTrue(rows.get(2).get("np_accuracy").isNumber());
        try (ScoringModel model = new ConfiguredModels().load(config)) {
            ExperimentData data = ExperimentData.prepare(config, model);
            assertEquals(data.testSet().labels().length, data.clientTests().stream().mapToInt(t -> t.size()).sum(),
                    "the clients' test rows are the test set, split");
            assertTrue(!data.participation().isParticipant(3) && data.participation().isParticipant(2));
        }
    }

    @Test
    void heldOutClientsNeedAPersonalisedMethod() {
        ConfigError error = org.junit.jupiter.api.Assertions.assertThrows(ConfigError.class,
                () -> TestRuns.config("federation.held-out-clients=1"));
        assertEquals("fedbpt.federation.held-out-clients", error.key());
    }
}
