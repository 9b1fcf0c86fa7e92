package dev.fedbpt.actors;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fedbpt.config.ExperimentConfig;
import dev.fedbpt.config.RunFields;
import dev.fedbpt.persistence.Confusion;
import dev.fedbpt.persistence.RoundIncidents;
import dev.fedbpt.persistence.RoundSummary;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunOutputsTest {
    @TempDir
    Path dir;

    @Test
    void aLongEvaluationPrintsItsProgressEveryHalfMinuteAndAShortOneNothing() {
        List<String> lines = new ArrayList<>();
        RunOutputs outputs = new RunOutputs(dir, TestRuns.config(), ConfiguredMethod.of(TestRuns.config()), "hash",
                lines::add);
        outputs.onEvaluationProgress(progress(0, 760, 10));
        outputs.onEvaluationProgress(progress(0, 2280, 31));
        outputs.onEvaluationProgress(progress(0, 3040, 45));
        outputs.onEvaluationProgress(progress(0, 4560, 62));
        outputs.onEvaluationProgress(progress(5, 3800, 25));
        outputs.onEvaluationProgress(progress(5, 6840, 45));
        assertEquals(List.of("zero-shot evaluation: 2280 of 7600 test rows scored, about 72 s left",
                "zero-shot evaluation: 4560 of 7600 test rows scored, about 41 s left",
                "evaluation after round 5: 6840 of 7600 test rows scored, about 5 s left"), lines);

        lines.clear();
        ExperimentConfig onDev = TestRuns.config("data.eval-split=dev");
        new RunOutputs(dir, onDev, ConfiguredMethod.of(onDev), "hash", lines::add)
                .onEvaluationProgress(progress(0, 2280, 31));
        assertEquals(List.of("zero-shot evaluation: 2280 of 7600 dev rows scored, about 72 s left"), lines,
                "a run scored on a development split never says test");
    }

    /** The reader of metrics.jsonl (report) tells the framework's keys from the method's metrics by this list. */
    @Test
    void aMetricsLineHoldsTheFrameworksKeysAndTheMethodsMetricsAndNothingElse() throws Exception {
        Map<String, Double> metrics = new LinkedHashMap<>();
        metrics.put("sigma", 0.9);
        RoundSummary summary = new RoundSummary(3, 1, 4, 4, 0, 0.5, metrics, 0.7, 10, 20, 30, 40, RoundIncidents.NONE,
                "ab12", List.of(new RoundSummary.ClientUpload(1, 0.4, 8)), Map.of(), Confusion.EMPTY, 5000L);
        Set<String> keys = new LinkedHashSet<>();
        new ObjectMapper().readTree(RunOutputs.metricsLine(summary)).fieldNames().forEachRemaining(keys::add);
        Set<String> expected = new LinkedHashSet<>(RunFields.FRAMEWORK_METRICS_KEYS);
        expected.add("sigma");
        assertEquals(expected, keys);
    }

    /** What accuracy hides is kept: how the rows were classified, and a prompt that predicts one class is named. */
    @Test
    void anEvaluationsConfusionIsWrittenAndAOneClassPromptIsSaidToBeOne() throws Exception {
        List<String> lines = new ArrayList<>();
        ExperimentConfig config = TestRuns.config();
        RunOutputs outputs = new RunOutputs(dir, config, ConfiguredMethod.of(config), "hash", lines::add);
        outputs.onZeroShot(0.5, Map.of(), Confusion.of(new long[][] {{0, 30}, {0, 30}}));
        outputs.onZeroShot(0.75, Map.of(), Confusion.of(new long[][] {{20, 10}, {5, 25}}));
        String only = config.task().labelNames().get(1);
        assertEquals(List.of("zero-shot accuracy 0.5000 (no prompt) (every row predicted '" + only + "')",
                "zero-shot accuracy 0.7500 (no prompt)"), lines);

        RoundSummary evaluated = new RoundSummary(3, 1, 4, 4, 0, 0.5, Map.of("sigma", 0.9), 0.75, 10, 20, 30, 40,
                RoundIncidents.NONE, "ab12", List.of(), Map.of(), Confusion.of(new long[][] {{20, 10}, {5, 25}}),
                7250L);
        JsonNode line = new ObjectMapper().readTree(RunOutputs.metricsLine(evaluated));
        assertEquals("[[20,10],[5,25]]", line.get("test_confusion").toString());
        assertEquals(7250, line.get("eval_ms").asLong(), "the evaluation's time, apart from the round's wall_ms");
        assertEquals(40, line.get("wall_ms").asLong());
    }

    private static Evaluator.Progress progress(int round, int scored, int seconds) {
        return new Evaluator.Progress(round, scored, 7600, Duration.ofSeconds(seconds));
    }

    /** A round whose uploads carry no loss (Fed-BBPT's counts round reports 0) shows none, not "loss 0.0000". */
    @Test
    void aRoundWithoutALossShowsNone() {
        assertEquals("loss 0.5000", RunOutputs.lossNote(round(0.5, List.of(new RoundSummary.ClientUpload(1, 0.5, 8)))));
        assertEquals("loss -", RunOutputs.lossNote(round(0.0, List.of(new RoundSummary.ClientUpload(1, 0.0, 8),
                new RoundSummary.ClientUpload(2, 0.0, 8)))));
        assertEquals("loss -", RunOutputs.lossNote(round(Double.NaN, List.of())));
    }

    private static RoundSummary round(double loss, List<RoundSummary.ClientUpload> clients) {
        return new RoundSummary(1, 1, 2, clients.size(), 0, loss, Map.of(), null, 0, 0, 0, 0, RoundIncidents.NONE,
                "ab12", clients, Map.of(), Confusion.EMPTY, null);
    }

    @Test
    void countsReadAsEnglish() {
        assertEquals("1 client", Counted.of(1, "client"));
        assertEquals("0 rounds", Counted.of(0, "round"));
        assertEquals("40 training examples", Counted.of(40, "training example"));
    }
}
