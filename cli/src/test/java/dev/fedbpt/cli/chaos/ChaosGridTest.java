package dev.fedbpt.cli.chaos;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The chaos grid, and how each setting maps to its fault-free-equivalent reference. */
class ChaosGridTest {
    private static final Duration DEADLINE = Duration.ofSeconds(2);

    @Test
    void standardGridHasReadableDistinctNames() {
        List<String> names = ChaosGrid.standard().stream().map(ChaosSetting::name).toList();
        assertEquals(List.of("none", "drop 10%", "drop 25%", "drop 50%", "client crash 10%", "score corruption 1%",
                "worker crash 20%", "kill x2", "drop 25% + worker crash 20% + kill x2", "late answers 30%"), names);
        Set<String> slugs = ChaosGrid.standard().stream().map(ChaosSetting::slug).collect(Collectors.toSet());
        assertEquals(names.size(), slugs.size());
        assertTrue(slugs.contains("drop-25-worker-crash-20-kill-x2"), slugs.toString());
    }

    @Test
    void referenceKeepsContentFaultsAndDropsTimingFaults() {
        for (ChaosSetting setting : ChaosGrid.standard()) {
            ChaosSetting reference = setting.reference();
            assertEquals(setting.dropRate(), reference.dropRate(), setting.name());
            assertEquals(setting.crashRate(), reference.crashRate(), setting.name());
            assertEquals(setting.corruptionRate(), reference.corruptionRate(), setting.name());
            assertEquals(0, reference.workerCrashRate(), setting.name());
            assertEquals(0, reference.delayRate(), setting.name());
            assertEquals(0, reference.kills(), setting.name());
        }
        ChaosSetting combined = ChaosSetting.NONE.withDrop(0.25).withWorkerCrash(0.2).withKills(2);
        assertEquals(ChaosSetting.NONE.withDrop(0.25), combined.reference());
        // Equal content faults give equal configurations, so the reference run is shared.
        assertEquals(ChaosSetting.NONE.withDrop(0.25).overrides(DEADLINE), combined.reference().overrides(DEADLINE));
        assertEquals(ChaosSetting.NONE.overrides(DEADLINE),
                ChaosSetting.NONE.withDelay(0.3).reference().overrides(DEADLINE));
        assertEquals(ChaosSetting.NONE, ChaosSetting.NONE.withKills(2).reference());
    }

    @Test
    void onlyLateAnswersAreNotExpectedToMatch() {
        for (ChaosSetting setting : ChaosGrid.standard()) {
            assertEquals(setting.delayRate() == 0, setting.hashExpectedEqual(), setting.name());
        }
        assertFalse(ChaosSetting.NONE.withDelay(0.3).hashExpectedEqual());
        assertTrue(ChaosSetting.NONE.withDelay(0.3).reference().hashExpectedEqual());
    }

    @Test
    void overridesSetEveryRateAndTheDelayMeanRelativeToTheDeadline() {
        assertEquals(List.of("faults.client-drop-rate=0", "faults.client-crash-rate=0",
                        "faults.score-corruption-rate=0", "faults.worker-crash-rate=0", "faults.client-delay-rate=0.3",
                        "faults.client-delay-mean=3000ms"),
                ChaosSetting.NONE.withDelay(0.3).overrides(DEADLINE));
        assertTrue(ChaosSetting.NONE.withScoreCorruption(0.01).overrides(DEADLINE)
                .contains("faults.score-corruption-rate=0.01"));
    }

    @Test
    void selectsByNameIgnoringCaseInGridOrder() {
        assertEquals(List.of("none", "kill x2"),
                ChaosGrid.select(List.of("Kill X2", "none")).stream().map(ChaosSetting::name).toList());
        assertEquals(ChaosGrid.standard(), ChaosGrid.select(List.of()));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ChaosGrid.select(List.of("drop 99%")));
        assertTrue(e.getMessage().contains("'drop 99%'") && e.getMessage().contains("'drop 25%'"), e.getMessage());
    }
}
