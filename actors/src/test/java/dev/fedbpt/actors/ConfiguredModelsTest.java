package dev.fedbpt.actors;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.fedbpt.config.ConfigLoader;
import dev.fedbpt.config.ExperimentConfig;
import dev.fedbpt.inference.ModelTokenizer;
import dev.fedbpt.inference.PromptTokenizer;
import dev.fedbpt.inference.ScoringModel;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A cluster member without the inference role prepares its data with the tokenizer alone: it must derive the very
 * data the inference member's model does, or the members would disagree on what each client holds.
 */
class ConfiguredModelsTest {
    @Test
    void theTokenizerAlonePreparesTheModelsData() {
        // ICL as well: its demonstrations are cut to the model's longest row
        for (String method : List.of("fedbpt", "icl")) {
            ExperimentConfig config = ConfigLoader.load(null, List.of("experiment.method=" + method,
                    "federation.clients=4", "data.shots-per-class=8", "data.icl-examples=40"));
            ConfiguredModels models = new ConfiguredModels();
            try (ScoringModel model = models.load(config); ModelTokenizer tokens = models.tokenizer(config)) {
                assertFalse(tokens instanceof ScoringModel, "no session for a member that only tokenises");
                assertEquals(PromptTokenizer.class, tokens.getClass());
                assertSameData(ExperimentData.prepare(config, model), ExperimentData.prepare(config, tokens));
            }
        }
    }

    private static void assertSameData(ExperimentData expected, ExperimentData actual) {
        assertEquals(expected.clients().size(), actual.clients().size());
        for (int c = 0; c < expected.clients().size(); c++) {
            assertRows(expected.clients().get(c).tokenIds(), actual.clients().get(c).tokenIds());
            assertArrayEquals(expected.clients().get(c).labels(), actual.clients().get(c).labels());
        }
        assertRows(expected.testSet().rows(), actual.testSet().rows());
        assertArrayEquals(expected.testSet().labels(), actual.testSet().labels());
    }

    private static void assertRows(List<int[]> expected, List<int[]> actual) {
        assertEquals(expected.size(), actual.size());
        for (int i = 0; i < expected.size(); i++) assertArrayEquals(expected.get(i), actual.get(i), "row " + i);
    }
}
