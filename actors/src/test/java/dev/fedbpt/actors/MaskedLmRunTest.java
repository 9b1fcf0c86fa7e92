package dev.fedbpt.actors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fedbpt.config.ConfigLoader;
import dev.fedbpt.config.ExperimentConfig;
import dev.fedbpt.inference.ModelSource;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Methods through the whole system on the bundled BERT-base, read at [MASK] through the task's label words. */
class MaskedLmRunTest {
    @TempDir
    Path dir;

    /**
     * The reference code's per-round perturbation replaces any token, [MASK] included; those copies are read at
     * their clean rows' [MASK], so no request fails and every client reports.
     */
    @Test
    void referenceCodeFedBptRunsOnBertBaseWithItsPerturbedCopiesReadAtTheCleanMask() {
        ExperimentConfig config = ConfigLoader.load(null, List.of("model.bundled=bert-base-uncased",
                "search.profile=reference-code", "search.local-iterations=2", "federation.clients=2",
                "data.shots-per-class=4", "data.test-limit=16", "model.prompt-length=5", "experiment.rounds=1"));
        assertEquals(ExperimentConfig.Head.MASKED_LM, config.model().head(), "the model's own head");
        ExperimentRunner.Outcome outcome = TestRuns.run(config, dir);
        assertTrue(outcome.succeeded(), outcome.failure());
        JsonNode round = TestRuns.metrics(dir).get(0);
        assertEquals(2, round.get("reported").asInt());
        assertEquals(0, round.get("dropped").asInt());
        assertEquals(0, TestRuns.result(dir).get("results_rejected").asInt());
    }

    /**
     * A white-box method on the PyTorch rebuild of the same model, its masked-LM head included: every client's
     * gradient steps run, and a second run from the same seed ends on the same bytes.
     */
    @Test
    void fedPTuningRunsOnTheWhiteBoxBertBaseReadAtMask() {
        List<String> overrides = List.of("model.bundled=bert-base-uncased", "model.backend=pytorch",
                "experiment.method=fedp-tuning", "gradient.fedp-tuning=prefix", "federation.clients=2",
                "data.shots-per-class=4", "data.test-limit=16", "experiment.rounds=2");
        ExperimentConfig config = ConfigLoader.load(null, overrides);
        assertEquals(ExperimentConfig.Head.MASKED_LM, config.model().head(), "the model's own head");
        ExperimentRunner.Outcome outcome = TestRuns.run(config, dir.resolve("first"));
        assertTrue(outcome.succeeded(), outcome.failure());
        for (JsonNode round : TestRuns.metrics(dir.resolve("first"))) {
            assertEquals(2, round.get("reported").asInt());
            assertTrue(Double.isFinite(round.get("mean_client_loss").asDouble()), round.toString());
        }
        assertTrue(TestRuns.run(ConfigLoader.load(null, overrides), dir.resolve("second")).succeeded());
        assertEquals(TestRuns.result(dir.resolve("first")).get("global_mean_sha256").asText(),
                TestRuns.result(dir.resolve("second")).get("global_mean_sha256").asText());
    }

    /** The configuration's list of masked LMs and the inference module's agree, model by model. */
    @Test
    void theConfigurationKnowsWhichBundledModelsAreMaskedLms() {
        for (String name : ExperimentConfig.BUNDLED_MODELS) {
            assertEquals(ModelSource.Bundled.byName(name).maskedLm(), ExperimentConfig.MASKED_LM_MODELS.contains(name),
                    name);
        }
        assertEquals(ModelSource.Bundled.values().length, ExperimentConfig.BUNDLED_MODELS.size());
    }
}
