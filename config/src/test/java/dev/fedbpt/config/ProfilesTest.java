package dev.fedbpt.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fedbpt.engine.method.MethodSettings;
import dev.fedbpt.engine.method.MethodContext;
import dev.fedbpt.engine.method.Methods;
import dev.fedbpt.engine.method.ModelFacts;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProfilesTest {
    @TempDir
    Path dir;

    @Test
    void paperIsTheDefaultAndEveryItemFollowsIt() {
        ExperimentConfig config = ConfigLoader.loadDefaults();
        MethodSettings s = config.settings();
        assertEquals("paper", s.text("search.profile"));
        assertEquals("paper-eq6", s.text("search.step-rule"));
        assertEquals("tutorial", s.text("search.cmaes-variant"));
        assertEquals("used", s.text("search.uploaded-sigmas"));
        assertEquals("global-state", s.text("search.client-start"));
        assertEquals("samples", s.text("search.fedavg-weights"));
        assertEquals(ExperimentConfig.PromptInjection.PREPEND, config.model().promptInjection());
    }

    @Test
    void referenceCodeSetsEveryItemAndAKeyStillOverridesItsItem() {
        ExperimentConfig config = ConfigLoader.load(null, List.of("search.profile=reference-code",
                "search.client-ranking=clean-loss"));
        MethodSettings s = config.settings();
        assertEquals("reference-code", s.text("search.step-rule"));
        assertEquals("pycma", s.text("search.cmaes-variant"));
        assertEquals("pycma", s.text("search.server-cmaes"));
        assertEquals("used", s.text("search.uploaded-sigmas"));
        assertEquals("light-copy", s.text("search.client-start"));
        assertEquals("clean-loss", s.text("search.client-ranking"), "the key wins over the profile");
        assertEquals("per-round", s.text("search.perturbation-mask"));
        assertEquals("uniform", s.text("search.fedavg-weights"));
        assertEquals("reset", s.text("search.fedavg-paths"));
        assertEquals(ExperimentConfig.PromptInjection.ADD_AFTER_LAYERNORM, config.model().promptInjection());
        // result.json's record of the reading: every item a profile sets, as the run uses it
        @SuppressWarnings("unchecked")
        Map<String, String> items = (Map<String, String>) Methods.create("fedbpt", new MethodContext(s, 1, 0, ModelFacts.NONE)).resultFields().get("reading");
        assertEquals("clean-loss", items.get("search.client-ranking"));
        assertEquals("add-after-layernorm", items.get("model.prompt-injection"));
        assertEquals(10, items.size());
        assertEquals("reference-code", Methods.create("fedbpt", new MethodContext(s, 1, 0, ModelFacts.NONE)).resultFields().get("profile"));
        assertEquals(Map.of(), Methods.create("zero-shot", new MethodContext(s, 1, 0, ModelFacts.NONE)).resultFields(), "a baseline reads no reading");
    }

    @Test
    void aStoredConfigurationRecordsResolvedValuesNotTheWordProfile() throws IOException {
        ExperimentConfig config = ConfigLoader.load(null, List.of("search.profile=reference-code"));
        assertFalse(config.resolvedHocon().contains("\"profile\""), config.resolvedHocon());
        Path stored = dir.resolve("config.conf");
        Files.writeString(stored, config.resolvedHocon());
        assertEquals(config, ConfigLoader.loadRunFolder(stored, List.of()));
    }

    @Test
    void aRunFolderFromBeforeProfilesReadsAsItRan() throws IOException {
        // What config.conf held before search.profile existed: the paper reading, step-rule written out.
        String before = ConfigLoader.loadDefaults().resolvedHocon()
                .replaceAll("(?m)^\\s*(profile|server-cmaes|uploaded-sigmas|client-start|client-ranking"
                        + "|perturbation-mask|fedavg-weights|prompt-injection|bundled)\\s*=.*$", "");
        assertFalse(before.contains("uploaded-sigmas"), before);
        Path stored = dir.resolve("config.conf");
        Files.writeString(stored, before);
        ExperimentConfig old = ConfigLoader.loadRunFolder(stored, List.of());
        assertEquals("after-tell", old.settings().text("search.uploaded-sigmas"),
                "clients uploaded the sigma after each update before the fix");
        assertEquals("paper", old.settings().text("search.profile"));
        assertEquals("global-state", old.settings().text("search.client-start"));
        assertEquals(ExperimentConfig.PromptInjection.PREPEND, old.model().promptInjection());
        // A new run of the same settings is another experiment: the sigma list differs.
        assertFalse(old.experimentHocon().equals(ConfigLoader.loadDefaults().experimentHocon()));
    }

    @Test
    void aRunFolderOfTheRemovedClampRuleIsRefusedNamingTheKey() throws IOException {
        String before = ConfigLoader.loadDefaults().resolvedHocon()
                .replaceAll("(?m)^\\s*profile\\s*=.*$", "")
                .replaceAll("(?m)^(\\s*step-rule\\s*=).*$", "$1 \"reference-code\"");
        Path stored = dir.resolve("config.conf");
        Files.writeString(stored, before);
        ConfigError error = assertThrows(ConfigError.class, () -> ConfigLoader.loadRunFolder(stored, List.of()));
        assertEquals("fedbpt.search.step-rule", error.key());
        assertTrue(error.getMessage().contains("clamp"), error.getMessage());
    }

    @Test
    void anUnknownProfileNamesTheKey() {
        ConfigError error = assertThrows(ConfigError.class,
                () -> ConfigLoader.load(null, List.of("search.profile=nvflare")));
        assertEquals("fedbpt.search.profile", error.key());
        assertTrue(error.getMessage().contains("reference-code"), error.getMessage());
    }
}
