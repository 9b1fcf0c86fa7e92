package dev.fedbpt.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
        assertEquals(ExperimentConfig.Profile.PAPER, config.search().profile());
        assertEquals(ExperimentConfig.StepRule.PAPER_EQ6, config.search().stepRule());
        assertEquals(ExperimentConfig.CmaesVariant.TUTORIAL, config.search().cmaesVariant());
        assertEquals(ExperimentConfig.UploadedSigmas.USED, config.search().uploadedSigmas());
        assertEquals(ExperimentConfig.ClientStart.GLOBAL_STATE, config.search().clientStart());
        assertEquals(ExperimentConfig.FedAvgWeights.SAMPLES, config.search().fedAvgWeights());
        assertEquals(ExperimentConfig.PromptInjection.PREPEND, config.model().promptInjection());
    }

    @Test
    void referenceCodeSetsEveryItemAndAKeyStillOverridesItsItem() {
        ExperimentConfig config = ConfigLoader.load(null, List.of("search.profile=reference-code",
                "search.client-ranking=clean-loss"));
        ExperimentConfig.Search s = config.search();
        assertEquals(ExperimentConfig.StepRule.REFERENCE_CODE, s.stepRule());
        assertEquals(ExperimentConfig.CmaesVariant.PYCMA, s.cmaesVariant());
        assertEquals(ExperimentConfig.ServerCmaes.PYCMA, s.serverCmaes());
        assertEquals(ExperimentConfig.UploadedSigmas.USED, s.uploadedSigmas());
        assertEquals(ExperimentConfig.ClientStart.LIGHT_COPY, s.clientStart());
        assertEquals(ExperimentConfig.ClientRanking.CLEAN_LOSS, s.clientRanking(), "the key wins over the profile");
        assertEquals(ExperimentConfig.PerturbationMask.PER_ROUND, s.perturbationMask());
        assertEquals(ExperimentConfig.FedAvgWeights.UNIFORM, s.fedAvgWeights());
        assertEquals(ExperimentConfig.FedAvgPaths.RESET, s.fedAvgPaths());
        assertEquals(ExperimentConfig.PromptInjection.ADD_AFTER_LAYERNORM, config.model().promptInjection());
        Map<String, String> items = Profiles.itemsOf(config);
        assertEquals("clean-loss", items.get("search.client-ranking"));
        assertEquals(Profiles.items(), items.keySet());
    }

    @Test
    void aStoredConfigurationRecordsResolvedValuesNotTheWordProfile() throws IOException {
        ExperimentConfig config = ConfigLoader.load(null, List.of("search.profile=reference-code"));
        assertFalse(config.resolvedHocon().contains("\"" + Profiles.FROM_PROFILE + "\""), config.resolvedHocon());
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
        assertEquals(ExperimentConfig.UploadedSigmas.AFTER_TELL, old.search().uploadedSigmas(),
                "clients uploaded the sigma after each update before the fix");
        assertEquals(ExperimentConfig.Profile.PAPER, old.search().profile());
        assertEquals(ExperimentConfig.ClientStart.GLOBAL_STATE, old.search().clientStart());
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
