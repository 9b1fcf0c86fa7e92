package dev.fedbpt.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code model.bundled} and {@code model.pooling}. */
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
        String hocon = ConfigLoader.loadDefaults().resolvedHocon();
        String without = hocon.replaceAll("(?m)^\\s*pooling\\s*=.*\\R", "");
        assertNotEquals(hocon, without);
        Path stored = dir.resolve("config.conf");
        Files.writeString(stored, without);
        assertEquals(ExperimentConfig.Pooling.DEFAULT,
                ConfigLoader.loadRunFolder(stored, List.of()).model().pooling());
    }
}
