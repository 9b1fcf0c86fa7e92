package dev.fedbpt.actors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fedbpt.config.ConfigError;
import dev.fedbpt.config.ExperimentConfig;
import dev.fedbpt.engine.data.Vocabulary;
import dev.fedbpt.engine.method.FederatedMethod;
import dev.fedbpt.engine.method.LocalRounds;
import dev.fedbpt.engine.method.PromptScorer;
import dev.fedbpt.inference.ScoringModel;
import dev.fedbpt.persistence.ServerState;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The white-box baselines through the actors on the PyTorch backend: every local step a gradient request that the
 * pool runs whole on a worker, the engine's synchronous reference computed through the actors to the same bytes (with
 * one worker, and with two computing at once), the parameters' bytes in metrics.jsonl.
 */
class GradientRunTest {
    @TempDir
    Path dir;

    static ExperimentConfig config(String method, String... more) {
        return TestRuns.config(TestRuns.concat(new String[]{"model.backend=pytorch", "model.intra-op-threads=1",
                "experiment.method=" + method, "experiment.rounds=2", "experiment.eval-every=1",
                "gradient.prompt-length=3", "gradient.prefix-length=2", "gradient.local-epochs=1",
                "federation.round-deadline=180s"}, more));
    }

    /** Two inference workers, each computing its clients' gradients on a torch thread of its own, at once. */
    @Test
    void fedPTuningThroughActorsComputesTheSynchronousReference() {
        ExperimentConfig config = config("fedp-tuning", "pool.workers=2", "gradient.fedp-tuning=prefix");
        JsonNode result = assertActorsComputeLocalRounds(config, dir.resolve("fedp-tuning"));
        int params = 6 * 2 * 2 * 384;
        assertEquals(params, result.get("trainable_parameters").asInt(), "6 layers x (key, value) x 2 x 384");
        List<JsonNode> rows = TestRuns.metrics(dir.resolve("fedp-tuning"));
        // Counted from the encoded messages: kind, round, client, loss, samples and the matrix's shape (29 bytes).
        assertEquals(4L * (params * 4 + 29), rows.get(0).get("bytes_up").asLong(),
                "4 clients x (float32 parameters + header)");
        assertTrue(rows.get(1).get("test_accuracy").isNumber());
    }

    /** FedBPT's code's FedP-tuning: the whole prompt encoder trained on each client, sent and averaged. */
    @Test
    void fedPTuningsPromptEncoderThroughActorsComputesTheSynchronousReference() {
        JsonNode result = assertActorsComputeLocalRounds(config("fedp-tuning", "gradient.fedp-tuning=prompt-encoder"),
                dir.resolve("encoder"));
        assertEquals("prompt-encoder", result.get("trains").asText());
        assertEquals(3 * 384 + 4 * (4 * 192 * 384 + 4 * 192 * 192 + 8 * 192) + 2 * (384 * 384 + 384),
                result.get("trainable_parameters").asInt(), "embedding, 2 x 2 LSTM directions, MLP");
    }

    @Test
    void fedPromptThroughActorsComputesTheSynchronousReference() {
        JsonNode result = assertActorsComputeLocalRounds(config("fedprompt"), dir.resolve("fedprompt"));
        assertEquals(3 * 384, result.get("trainable_parameters").asInt());
    }

    /**
     * FedPepTAO choosing its layers (Algorithm 1): a warm-up round in which each device's layer kernels come from the
     * pool, a selection round of finite-difference Hessian-vector products, then Algorithm 2 from scratch with one
     * device held out; each device's own layers and AdamW moments live in its memory, the control variates in the
     * server's state, and the personalisation round scores every device's own prefix on its own test rows. The actors
     * compute what the engine's reference computes, to the bit.
     */
    @Test
    void fedPepTaoThroughActorsComputesTheSynchronousReference() {
        ExperimentConfig config = config("fedpeptao", "pool.workers=2", "experiment.rounds=4",
                "fedpeptao.selected-layers=auto",
                "fedpeptao.warm-up-rounds=1", "fedpeptao.lanczos-steps=3", "data.split=dirichlet",
                "federation.held-out-clients=1");
        JsonNode result = assertActorsComputeLocalRounds(config, dir.resolve("fedpeptao"));
        assertEquals("algorithm-1", result.get("layer_selection").asText());
        List<JsonNode> rows = TestRuns.metrics(dir.resolve("fedpeptao"));
        int prefix = 6 * 2 * 2 * 384;
        assertEquals(3L * (prefix * 4 + 5 * 8 + 33), rows.get(0).get("bytes_up").asLong(),
                "3 participants x (float32 prefix + 5 layer scores + header of the encoded message)");
        assertEquals(3L * (8 + 21), rows.get(1).get("bytes_up").asLong(), "3 keep ratios and their headers");
        int layers = rows.get(2).get("federated_layers").asInt();
        assertTrue(layers >= 1 && layers <= 6, rows.get(2).toString());
        assertEquals(3L * (layers * 2 * 2 * 384 * 4 + 33), rows.get(2).get("bytes_up").asLong(),
                "3 participants x (the federated layers' float32 prefix + header)");
        assertEquals(layers, result.get("selected_layers").size(), result.toString());
        assertTrue(result.get("final_keep_ratio").asDouble() > 0, result.toString());
        assertTrue(result.get("final_np_accuracy").isNumber(), result.toString());
    }

    private static JsonNode assertActorsComputeLocalRounds(ExperimentConfig config, Path run) {
        assertNull(TestRuns.run(config, run).failure());
        for (JsonNode round : TestRuns.metrics(run)) {
            assertEquals(round.get("sampled").asInt(), round.get("reported").asInt(), "every client reported");
        }
        JsonNode result = TestRuns.result(run);
        ModelBinding binding = new ModelBinding();
        try (ScoringModel model = new ConfiguredModels().load(config)) {
            binding.bind(model);
            ExperimentData data = ExperimentData.prepare(config, model);
            FederatedMethod method = ConfiguredMethod.of(config, binding);
            LocalRounds.Outcome reference = LocalRounds.run(method, config.experiment().seed(),
                    config.experiment().traits().serverRounds(config.experiment().rounds()),
                    config.federation().sampleFraction(), data.clients(), data.clientTests(), data.participation(),
                    new Vocabulary(model.vocabularySize(), model.specialTokenIds()), (PromptScorer) model, false);
            assertEquals(ServerState.fingerprint(method.evaluationPrompt(reference.last())),
                    result.get("global_mean_sha256").asText(), "the actors train as the reference does");
            assertNotEquals(ServerState.fingerprint(method.evaluationPrompt(reference.initial())),
                    ServerState.fingerprint(method.evaluationPrompt(reference.last())), "training moved the prompt");
            Double p = method.metrics(reference.last()).get("p_accuracy");
            if (p != null) assertEquals(p, result.get("final_p_accuracy").asDouble());
        }
        assertEquals(config.experiment().traits().serverRounds(config.experiment().rounds()),
                result.get("rounds_completed").asInt());
        return result;
    }

    @Test
    void aWhiteBoxMethodNeedsThePytorchBackend() {
        ConfigError error = assertThrows(ConfigError.class,
                () -> TestRuns.config("experiment.method=fedprompt", "model.backend=onnx"));
        assertEquals("fedbpt.model.backend", error.key());
        assertTrue(error.getMessage().contains("pytorch"), error.getMessage());
    }
}
