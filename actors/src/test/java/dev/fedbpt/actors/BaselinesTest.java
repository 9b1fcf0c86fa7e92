package dev.fedbpt.actors;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fedbpt.config.ConfigError;
import dev.fedbpt.config.ExperimentConfig;
import dev.fedbpt.inference.ScoringModel;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The baselines are methods like any other: zero-shot, in-context learning, centralised BBT; and the dev split. */
class BaselinesTest {
    @TempDir
    Path dir;

    @Test
    void zeroShotRunsNoRoundsAndReportsTheNoPromptAccuracy() {
        ExperimentRunner.Outcome outcome = TestRuns.run(TestRuns.config("experiment.method=zero-shot"), dir);
        assertTrue(outcome.succeeded(), outcome.failure());
        JsonNode result = TestRuns.result(dir);
        assertEquals(0, result.get("rounds_completed").asInt());
        assertEquals(result.get("zero_shot_accuracy").asDouble(), result.get("final_accuracy").asDouble());
        assertTrue(TestRuns.metrics(dir).isEmpty());
    }

    @Test
    void inContextLearningPrependsDemonstrationsThatFitTheModel() {
        ExperimentConfig icl = TestRuns.config("experiment.method=icl", "data.icl-examples=3");
        try (ScoringModel model = new ConfiguredModels().load(icl)) {
            ExperimentData plain = ExperimentData.prepare(TestRuns.config("experiment.method=zero-shot"), model);
            ExperimentData withDemos = ExperimentData.prepare(icl, model);
            for (int i = 0; i < plain.testSet().labels().length; i++) {
                int[] alone = plain.testSet().rows().get(i);
                int[] pair = withDemos.testSet().rows().get(i);
                assertTrue(pair.length > alone.length + 6, "three demonstrations precede test input " + i);
                int contextEnd = pair.length - alone.length;
                assertArrayEquals(Arrays.copyOfRange(alone, 1, alone.length),
                        Arrays.copyOfRange(pair, contextEnd + 1, pair.length), "the input follows its context");
                assertEquals(alone[alone.length - 1], pair[contextEnd], "a separator ends the context");
                assertEquals(alone[0], pair[0], "the row begins with the model's first special token");
            }
        }
        ExperimentRunner.Outcome outcome = TestRuns.run(icl, dir);
        assertTrue(outcome.succeeded(), outcome.failure());
        JsonNode result = TestRuns.result(dir);
        assertTrue(result.get("zero_shot_accuracy").isNull(), "an ICL evaluation is not the zero-shot baseline");
        assertTrue(result.get("final_accuracy").isNumber());
    }

    @Test
    void centralisedBbtIsOneClientHoldingAllTheTrainingData() {
        ExperimentConfig config = TestRuns.config("experiment.method=centralised-bbt");
        try (ScoringModel model = new ConfiguredModels().load(config)) {
            ExperimentData data = ExperimentData.prepare(config, model);
            assertEquals(1, data.clients().size());
            assertEquals(16, data.clients().get(0).labels().length, "8 shots x 2 classes");
        }
        ExperimentRunner.Outcome outcome = TestRuns.run(config, dir);
        assertTrue(outcome.succeeded(), outcome.failure());
        TestRuns.metrics(dir).forEach(round -> assertEquals(1, round.get("sampled").asInt()));
    }

    @Test
    void devSplitIsDrawnFromTheTrainFileApartFromTheFewShotSet() {
        ExperimentConfig config = TestRuns.config("data.eval-split=dev", "data.dev-per-class=20");
        try (ScoringModel model = new ConfiguredModels().load(config)) {
            assertEquals(40, ExperimentData.prepare(config, model).testSet().labels().length);
        }
        assertTrue(TestRuns.run(config, dir).succeeded());
        assertEquals("dev", TestRuns.result(dir).get("eval_split").asText());
        ExperimentConfig allTraining = TestRuns.config("data.eval-split=dev", "data.shots-per-class=0");
        try (ScoringModel model = new ConfiguredModels().load(allTraining)) {
            ConfigError error = assertThrows(ConfigError.class, () -> ExperimentData.prepare(allTraining, model));
            assertTrue(error.getMessage().contains("fedbpt.data.eval-split"), error.getMessage());
        }
    }
}
