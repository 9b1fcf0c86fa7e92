package dev.fedbpt.engine.fedbpt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fedbpt.engine.method.MapSettings;
import dev.fedbpt.engine.method.SettingException;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The profile table and the rules for older run folders, on plain key/value maps (no configuration library). */
class FedBptSettingsTest {
    private final FedBptSettings rules = new FedBptSettings();

    @Test
    void keysSetToProfileTakeTheProfilesValueAndOthersKeepTheirs() {
        Map<String, String> values = new HashMap<>();
        values.put("search.profile", "reference-code");
        values.put("search.step-rule", "profile");
        values.put("search.client-ranking", "clean-loss");
        values.put("model.prompt-injection", "profile");
        Map<String, String> resolved = rules.resolve(values::get);
        assertEquals(Map.of("search.step-rule", "reference-code", "model.prompt-injection", "add-after-layernorm"),
                resolved);
    }

    @Test
    void theMethodsThatSearchReadTheProfileAndTheBaselinesDoNot() {
        assertEquals(java.util.List.of("fedbpt", "fedavg-bbt", "centralised-bbt"), rules.leadingKeysReaders());
        assertEquals(java.util.List.of("search.profile"), rules.leadingKeys());
    }

    @Test
    void anUnknownProfileNamesTheKey() {
        Map<String, String> values = Map.of("search.profile", "nvflare", "search.step-rule", "profile");
        SettingException e = assertThrows(SettingException.class, () -> rules.resolve(values::get));
        assertEquals("search.profile", e.key());
        assertTrue(e.getMessage().contains("paper, reference-code"), e.getMessage());
    }

    @Test
    void aFolderFromBeforeProfilesRanThePaperReadingWithTheSigmasAfterEachUpdate() {
        assertEquals(Map.of("search.profile", "paper", "search.uploaded-sigmas", "after-tell"),
                rules.beforeKeysExisted(Map.of("search.step-rule", "paper-eq6")::get));
        assertEquals(Map.of(), rules.beforeKeysExisted(Map.of("search.profile", "paper")::get));
        SettingException clamp = assertThrows(SettingException.class,
                () -> rules.checkResumable(Map.of("search.step-rule", "reference-code")::get));
        assertEquals("search.step-rule", clamp.key());
        rules.checkResumable(Map.of("search.profile", "reference-code", "search.step-rule", "reference-code")::get);
    }

    @Test
    void aZeroPerturbationRateIsOtherWork() {
        assertEquals("clean", rules.workClass(new MapSettings(Map.of("search.perturbation-rate", "0"))));
        assertEquals("perturbed", rules.workClass(new MapSettings(Map.of("search.perturbation-rate", "0.5"))));
    }
}
