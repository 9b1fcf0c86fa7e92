package dev.fedbpt.actors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fedbpt.config.ConfigError;
import dev.fedbpt.config.ConfigLoader;
import dev.fedbpt.config.ExperimentConfig;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** FedBPT through the whole system on the bundled MiniLM with its linear layers in int8. */
class Int8RunTest {
    static final List<String> SHORT = List.of("experiment.rounds=2", "experiment.eval-every=2",
            "federation.clients=2", "data.shots-per-class=4", "search.local-iterations=2", "pool.workers=2",
            "model.intra-op-threads=1");

    @TempDir
    Path dir;

    static ExperimentConfig config(String precision) {
        List<String> overrides = new java.util.ArrayList<>(SHORT);
        overrides.add("model.precision=" + precision);
        return ConfigLoader.load(null, overrides);
    }

    @Test
    void anInt8RunOnTwoWorkersEndsOnTheSameBytesTwiceAndSaysItsPrecision() {
        assertTrue(TestRuns.run(config("int8"), dir.resolve("first")).succeeded());
        assertTrue(TestRuns.run(config("int8"), dir.resolve("second")).succeeded());
        assertTrue(TestRuns.run(config("fp32"), dir.resolve("fp32")).succeeded());
        String first = TestRuns.result(dir.resolve("first")).get("global_mean_sha256").asText();
        assertEquals(first, TestRuns.result(dir.resolve("second")).get("global_mean_sha256").asText());
        assertNotEquals(first, TestRuns.result(dir.resolve("fp32")).get("global_mean_sha256").asText(),
                "int8 scores differ from fp32's, so the search does too");
        assertEquals("int8", TestRuns.result(dir.resolve("first")).get("precision").asText());
        assertEquals("fp32", TestRuns.result(dir.resolve("fp32")).get("precision").asText());
    }

    @Test
    void int8IsRefusedOffTheOnnxBackendNamingTheKey() {
        ConfigError error = org.junit.jupiter.api.Assertions.assertThrows(ConfigError.class,
                () -> ConfigLoader.load(null, List.of("model.precision=int8", "model.backend=pytorch",
                        "experiment.method=fedprompt")));
        assertEquals("fedbpt.model.precision", error.key());
        assertTrue(error.getMessage().contains("onnx backend on the CPU"), error.getMessage());
    }
}
