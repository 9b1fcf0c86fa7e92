package dev.fedbpt.actors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fedbpt.config.ConfigLoader;
import dev.fedbpt.config.ExperimentConfig;
import dev.fedbpt.inference.ScoreRow;
import dev.fedbpt.persistence.RoundIncidents;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class SeededFaultsTest {
    private static final ExperimentConfig.Faults RATES =
            new ExperimentConfig.Faults(0.2, 0.1, 0.3, Duration.ofSeconds(2), 0.25, 0.05);

    @Test
    void noFaultsConfiguredMeansNoInjector() {
        assertSame(FaultInjector.NONE, SeededFaults.from(ConfigLoader.loadDefaults()));
        ExperimentConfig withDrops = ConfigLoader.load(null, List.of("faults.client-drop-rate=0.1"));
        assertTrue(SeededFaults.from(withDrops) instanceof SeededFaults);
    }

    @Test
    void decisionsArePureFunctionsOfSeedAndCoordinatesAndFollowTheRates() {
        SeededFaults a = new SeededFaults(RATES, 7, 8);
        SeededFaults b = new SeededFaults(RATES, 7, 8);
        int drops = 0;
        int crashes = 0;
        int delays = 0;
        int n = 20_000;
        for (int i = 0; i < n; i++) {
            FaultInjector.ClientFault fa = a.clientFault(1 + i / 100, 1 + i % 3, i % 100);
            assertEquals(fa, b.clientFault(1 + i / 100, 1 + i % 3, i % 100));
            drops += fa.drops() ? 1 : 0;
            if (fa.crashAtIteration() >= 0) {
                crashes++;
                assertTrue(fa.crashAtIteration() < 8);
            }
            delays += fa.delay().isZero() ? 0 : 1;
        }
        assertEquals(0.2, drops / (double) n, 0.015);
        assertEquals(0.8 * 0.1, crashes / (double) n, 0.01);
        assertEquals(0.8 * 0.9 * 0.3, delays / (double) n, 0.015);
        RoundIncidents counted = a.drainCounts();
        assertEquals(drops, counted.clientDrops());
        assertEquals(crashes, counted.clientCrashes());
        assertEquals(delays, counted.clientDelays());
        assertEquals(0, a.drainCounts().faultsInjected(), "draining resets the counts");
    }

    @Test
    void scoreCorruptionDependsOnTheRowsContentNotOnItsBatch() {
        SeededFaults faults = new SeededFaults(RATES, 7, 8);
        int corrupted = 0;
        int n = 10_000;
        for (int i = 0; i < n; i++) {
            ScoreRow row = new ScoreRow(new double[] {i * 0.5, -i}, new int[] {101, i, 102});
            Float value = faults.corruptedScore(row);
            Float again = faults.corruptedScore(new ScoreRow(row.z().clone(), row.tokenIds().clone()));
            assertEquals(value, again);
            if (value != null) {
                corrupted++;
                assertTrue(value.isNaN() || value.isInfinite());
            }
        }
        assertEquals(0.05, corrupted / (double) n, 0.01);
        assertNull(new SeededFaults(ExperimentConfig.Faults.NONE, 7, 8)
                .corruptedScore(new ScoreRow(null, new int[] {1, 2})));
    }

    @Test
    void workerCrashesFollowTheRate() {
        SeededFaults faults = new SeededFaults(RATES, 7, 8);
        int crashes = 0;
        for (long batch = 0; batch < 10_000; batch++) {
            crashes += faults.workerCrashes(0, batch) ? 1 : 0;
        }
        assertEquals(0.25, crashes / 10_000.0, 0.02);
        assertEquals(crashes, faults.drainCounts().workerCrashes());
    }
}
