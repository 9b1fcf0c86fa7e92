package dev.fedbpt.actors;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunOutputsTest {
    @TempDir
    Path dir;

    @Test
    void aLongEvaluationPrintsItsProgressEveryHalfMinuteAndAShortOneNothing() {
        List<String> lines = new ArrayList<>();
        RunOutputs outputs = new RunOutputs(dir, TestRuns.config(), "hash", lines::add);
        outputs.onEvaluationProgress(progress(0, 760, 10));
        outputs.onEvaluationProgress(progress(0, 2280, 31));
        outputs.onEvaluationProgress(progress(0, 3040, 45));
        outputs.onEvaluationProgress(progress(0, 4560, 62));
        outputs.onEvaluationProgress(progress(5, 3800, 25));
        outputs.onEvaluationProgress(progress(5, 6840, 45));
        assertEquals(List.of("zero-shot evaluation: 2280 of 7600 test rows scored, about 72 s left",
                "zero-shot evaluation: 4560 of 7600 test rows scored, about 41 s left",
                "evaluation after round 5: 6840 of 7600 test rows scored, about 5 s left"), lines);
    }

    private static Evaluator.Progress progress(int round, int scored, int seconds) {
        return new Evaluator.Progress(round, scored, 7600, Duration.ofSeconds(seconds));
    }
}
