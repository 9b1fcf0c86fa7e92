package dev.fedbpt.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fedbpt.config.ConfigLoader;
import dev.fedbpt.config.ExperimentConfig;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RunSummaryTest {
    private static final Map<String, Object> PERSONALISED = Map.of("method", "dls-ec", "rounds_completed", 11,
            "zero_shot_accuracy", 0.58, "final_accuracy", 0.62, "final_p_accuracy", 0.601,
            "final_np_accuracy", 0.5237);

    @Test
    void aPersonalisedMethodSaysItsPAndNpAccuracy() {
        ExperimentConfig config = ConfigLoader.load(null, List.of("experiment.method=dls-ec"));
        List<String> lines = RunSummary.lines(config, PERSONALISED, 12.0);
        assertEquals("zero-shot accuracy 0.5800   tuned accuracy 0.6200   (dls-ec, 11 rounds, 12.0 s)", lines.get(0));
        assertTrue(lines.contains("personalised accuracy (P) 0.6010   held-out clients (NP) 0.5237"), lines.toString());
    }

    @Test
    void aMethodThatIsNotPersonalisedHasNoPOrNp() {
        ExperimentConfig config = ConfigLoader.load(null, List.of());
        List<String> lines = RunSummary.lines(config, Map.of("method", "fedbpt", "rounds_completed", 1,
                "zero_shot_accuracy", 0.5, "final_accuracy", 0.5), null);
        assertEquals("zero-shot accuracy 0.5000   tuned accuracy 0.5000   (fedbpt, 1 round, finished before; "
                + "nothing ran now)", lines.get(0));
        assertTrue(lines.stream().noneMatch(l -> l.contains("(P)")), lines.toString());
    }
}
