package dev.fedbpt.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code model.bundled}, {@code model.pooling} and {@code model.device}. */
class ModelConfigTest {
    @TempDir
    Path dir;

    @Test
    void defaultsAreMiniLmWithItsOwnPooling() {
        ExperimentConfig.Model model = ConfigLoader.loadDefaults().model();
        assertEquals("all-minilm-l6-v2", model.bundled());
        assertEquals(ExperimentConfig.Pooling.DEFAULT, model.pooling());
    }

    @Test
    void bundledAndPoolingAreRead() {
        ExperimentConfig.Model model = ConfigLoader.load(null,
                List.of("model.bundled=bge-small-en-v1.5", "model.pooling=cls")).model();
        assertEquals("bge-small-en-v1.5", model.bundled());
        assertEquals(ExperimentConfig.Pooling.CLS, model.pooling());
        assertEquals(ExperimentConfig.Pooling.MEAN,
                ConfigLoader.load(null, List.of("model.pooling=mean")).model().pooling());
        assertNotEquals(ConfigLoader.loadDefaults().canonicalHash(),
                ConfigLoader.load(null, List.of("model.pooling=cls")).canonicalHash(),
                "pooling changes what a run computes");
    }

    @Test
    void theDefaultHeadIsTheModelsOwnAndIsStoredResolved() {
        ExperimentConfig encoder = ConfigLoader.loadDefaults();
        assertEquals(ExperimentConfig.Head.SIMILARITY, encoder.model().head());
        ExperimentConfig bert = ConfigLoader.load(null, List.of("model.bundled=bert-base-uncased"));
        assertEquals(ExperimentConfig.Head.MASKED_LM, bert.model().head());
        assertTrue(bert.resolvedHocon().contains("masked-lm"), "config.conf stores the head itself");
        assertEquals(ExperimentConfig.Head.MASKED_LM,
                ConfigLoader.load(null, List.of("model.bundled=bert-base-cased")).model().head());
        // a model file keeps the similarity head unless told otherwise
        assertEquals(ExperimentConfig.Head.SIMILARITY, ConfigLoader.load(null,
                List.of("model.onnx=m.onnx", "model.tokenizer=t.json")).model().head());
    }

    @Test
    void aMaskedLmWithTheSimilarityHeadIsRefusedSayingWhy() {
        ConfigError error = assertThrows(ConfigError.class, () -> ConfigLoader.load(null,
                List.of("model.bundled=bert-base-uncased", "model.head=similarity")));
        assertEquals("fedbpt.model.head", error.key());
        assertTrue(error.getMessage().contains("masked language model"), error.getMessage());
    }

    @Test
    void anUnknownPoolingIsRefusedNamingTheKeyAndTheChoices() {
        ConfigError error = assertThrows(ConfigError.class,
                () -> ConfigLoader.load(null, List.of("model.pooling=max")));
        assertEquals("fedbpt.model.pooling", error.key());
        assertTrue(error.getMessage().contains("default, mean, cls"), error.getMessage());
        assertTrue(error.getMessage().contains("'max'"), error.getMessage());
    }

    @Test
    void anUnknownBundledModelIsRefusedNamingTheChoices() {
        ConfigError error = assertThrows(ConfigError.class,
                () -> ConfigLoader.load(null, List.of("model.bundled=bge-base-en-v1.5")));
        assertEquals("fedbpt.model.bundled", error.key());
        assertTrue(error.getMessage().contains("all-minilm-l6-v2, bge-small-en-v1.5"), error.getMessage());
    }

    @Test
    void aRunFolderFromBeforeTheKeyReadsAsTheModelsOwnPooling() throws IOException {
        assertEquals(ExperimentConfig.Pooling.DEFAULT, storedWithout("pooling").model().pooling());
    }

    @Test
    void theDeviceIsTheCpuUnlessACudaDeviceIsNamed() {
        assertEquals(OptionalInt.empty(), ConfigLoader.loadDefaults().model().cudaDevice());
        assertEquals(OptionalInt.of(0), ConfigLoader.load(null, List.of("model.device=cuda")).model().cudaDevice());
        assertEquals(OptionalInt.of(3), ConfigLoader.load(null, List.of("model.device=cuda:3")).model().cudaDevice());
        assertNotEquals(ConfigLoader.loadDefaults().canonicalHash(),
                ConfigLoader.load(null, List.of("model.device=cuda")).canonicalHash(),
                "a GPU's sums differ from the CPU's in the last bits: the device is part of the experiment");
    }

    @Test
    void aDeviceNotSpelledAsExpectedIsRefusedSayingWhatWasExpected() {
        for (String bad : List.of("gpu", "cuda:", "cuda:x", "CUDA")) {
            ConfigError error = assertThrows(ConfigError.class,
                    () -> ConfigLoader.load(null, List.of("model.device=" + bad)));
            assertEquals("fedbpt.model.device", error.key());
            assertTrue(error.getMessage().contains("expected cpu, cuda or cuda:N"), error.getMessage());
        }
    }

    @Test
    void onlyTheOnnxBackendRunsOnCuda() {
        ConfigError error = assertThrows(ConfigError.class,
                () -> ConfigLoader.load(null, List.of("model.device=cuda", "model.backend=synthetic")));
        assertEquals("fedbpt.model.device", error.key());
        assertTrue(error.getMessage().contains("synthetic"), error.getMessage());
    }

    @Test
    void aRunFolderFromBeforeTheDeviceKeyRanOnTheCpu() throws IOException {
        ExperimentConfig loaded = storedWithout("device");
        assertEquals(OptionalInt.empty(), loaded.model().cudaDevice());
        assertEquals(ConfigLoader.loadDefaults().canonicalHash(), loaded.canonicalHash());
    }

    @Test
    void aCappedRunFolderFromBeforeTheTestSampleKeyKeptTheFirstRows() throws IOException {
        assertEquals(ExperimentConfig.TestSampling.FIRST,
                storedWithout("test-sample", "data.test-limit=100").data().testSampling());
        ExperimentConfig uncapped = storedWithout("test-sample");
        assertEquals(ConfigLoader.loadDefaults().experimentHocon(), uncapped.experimentHocon(),
                "without a cap the key changes nothing");
        assertEquals(ExperimentConfig.TestSampling.STRATIFIED,
                ConfigLoader.load(null, List.of("data.test-limit=100")).data().testSampling());
    }

    @Test
    void aRunFolderFromBeforeThePrecisionKeyRanInFp32() throws IOException {
        ExperimentConfig loaded = storedWithout("precision");
        assertEquals(ExperimentConfig.Precision.FP32, loaded.model().precision());
        assertEquals(ConfigLoader.loadDefaults().experimentHocon(), loaded.experimentHocon());
        assertEquals(ExperimentConfig.Precision.INT8,
                ConfigLoader.load(null, List.of("model.precision=int8")).model().precision());
        ConfigError cuda = assertThrows(ConfigError.class,
                () -> ConfigLoader.load(null, List.of("model.precision=int8", "model.device=cuda")));
        assertEquals("fedbpt.model.precision", cuda.key());
    }

    @Test
    void aTokenPromptRunFolderFromBeforeThePoolingKeyPooledItsPromptAndNoOtherFolderChanges() throws IOException {
        for (String method : List.of("fed-bbpt", "bdpl")) {
            ExperimentConfig stored = storedWithout("pool-token-prompt", "experiment.method=" + method);
            assertTrue(stored.model().poolTokenPrompt(), method + " on the similarity head pooled its tokens");
            assertEquals(ConfigLoader.load(null, List.of("experiment.method=" + method,
                    "model.pool-token-prompt=true")).experimentHocon(), stored.experimentHocon());
        }
        assertFalse(ConfigLoader.loadDefaults().model().poolTokenPrompt(), "a new run leaves the prompt out");
        ExperimentConfig fedbpt = storedWithout("pool-token-prompt");
        assertEquals(ConfigLoader.loadDefaults().experimentHocon(), fedbpt.experimentHocon(),
                "a continuous prompt was never pooled: the folder is the same experiment as a new one");
        List<String> maskedLm = List.of("experiment.method=fed-bbpt", "model.bundled=bert-base-uncased");
        assertEquals(ConfigLoader.load(null, maskedLm).experimentHocon(),
                storedWithout("pool-token-prompt", maskedLm.toArray(String[]::new)).experimentHocon(),
                "the masked-LM head pools nothing");
    }

    /** The defaults as a run folder written before the model section's {@code key} existed stores them, loaded. */
    private ExperimentConfig storedWithout(String key, String... overrides) throws IOException {
        String hocon = ConfigLoader.load(null, List.of(overrides)).resolvedHocon();
        String without = hocon.replaceAll("(?m)^\\s*" + key + "\\s*=.*\\R", "");
        assertNotEquals(hocon, without);
        Path stored = dir.resolve("config.conf");
        Files.writeString(stored, without);
        return ConfigLoader.loadRunFolder(stored, List.of());
    }
}
