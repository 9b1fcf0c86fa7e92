package dev.fedbpt.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fedbpt.actors.cluster.RoundStates;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A tiny version of the scale benchmark: every figure is measured and finite, and the round traffic really crossed
 * members. Speed is the machine's business, so nothing here asserts it.
 */
@Timeout(120)
class PopulationBenchTest {

    @Test
    void measuresEveryFigureOnATinyCluster() {
        PopulationBench.Settings settings = PopulationBench.Settings.of(300, 6, 16, 2)
                .withSlopes(List.of(150, 300), List.of(3, 6))
                .withEngineReps(1);
        List<String> progress = new ArrayList<>();
        PopulationBench.Result result = PopulationBench.run(settings, progress::add);

        PopulationBench.ClusterRun main = result.main();
        assertEquals(300, main.population());
        assertEquals(6, main.sampled());
        assertPositive("rounds/s", main.roundsPerSecond());
        assertPositive("heap between rounds", main.heapEndOfRoundMb());
        assertPositive("heap mid-round", main.heapMidRoundMb());
        assertPositive("bytes per round", main.bytesPerRound());
        assertTrue(main.byMessage().stream().anyMatch(m -> m.type().equals("ServerActor.ClientReport")),
                "client reports crossed members: " + main.byMessage());
        assertTrue(main.byMessage().stream().anyMatch(m -> m.type().equals("RoundStates.Update")),
                "a member holding the previous round's state got the round's update: " + main.byMessage());
        assertTrue(main.clientBytes().downPerSampledClient() > 0 && main.clientBytes().upPerReport() > 0,
                main.clientBytes().toString());
        assertTrue(main.runFolderBytes() > 0);

        assertPositive("server update", result.engine().serverUpdateMs());
        assertPositive("server prepare", result.engine().serverPrepareMs());
        assertPositive("client search", result.engine().clientSearchMs());
        assertPositive("client search from a shared start", result.engine().clientSearchSharedStartMs());
        assertPositive("client search replayed", result.engine().searchReplayMs());

        assertEquals(2, result.frames().size());
        result.frames().forEach(frame -> assertTrue(frame.bytes() > 0 && frame.fits(), frame.toString()));

        assertEquals(List.of(150, 300), result.populationSeries().stream().map(r -> r.population()).toList());
        assertEquals(List.of(3, 6), result.sampledSeries().stream().map(r -> r.sampled()).toList());
        assertTrue(Double.isFinite(result.slopeMbPer1000Population()));
        assertTrue(Double.isFinite(result.slopeMbPerSampledClient()));
        assertTrue(Double.isFinite(result.endOfRoundSlopeMbPer1000Population()));
        assertTrue(Double.isFinite(result.endOfRoundSlopeMbPerSampledClient()));
        // engine line + the main run + one more run per series (the main run is a point of both)
        assertEquals(4, progress.size(), String.join("\n", progress));
    }

    @Test
    void refusesSettingsThatCannotGiveASlope() {
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
                () -> PopulationBench.Settings.of(300, 1, 16, 2));
        assertTrue(error.getMessage().contains("sampled series"), error.getMessage());
        assertThrows(IllegalArgumentException.class, () -> PopulationBench.Settings.of(10, 20, 16, 2));
    }

    private static void assertPositive(String what, double value) {
        assertTrue(Double.isFinite(value) && value > 0, what + " must be positive and finite, was " + value);
    }
}
