package dev.fedbpt.actors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.testkit.typed.javadsl.FishingOutcomes;
import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
import akka.actor.typed.javadsl.Behaviors;
import com.typesafe.config.ConfigFactory;
import dev.fedbpt.engine.data.TaskMetric;
import dev.fedbpt.engine.method.Prompt;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

class EvaluatorTest {
    private static final ActorTestKit KIT = ActorTestKit.create(AkkaDefaults.over(ConfigFactory.empty()));

    @AfterAll
    static void shutdown() {
        KIT.shutdownTestKit();
    }

    // 100 rows, labels 0 and 1 in turn; the pool scores class 1 highest when a row's only token is odd, and rows 75
    // to 99 hold the next token, so they score the other class.
    private static final List<int[]> ROWS = new ArrayList<>();
    private static final int[] LABELS = new int[100];

    static {
        for (int i = 0; i < 100; i++) {
            ROWS.add(new int[] {i < 75 ? i : i + 1});
            LABELS[i] = i % 2;
        }
    }

    @Test
    void reportsProgressAsEachTenthOfTheRowsIsScoredThenTheAccuracy() {
        List<int[]> rows = ROWS;
        int[] labels = LABELS;
        ActorRef<InferencePool.Request> pool = parityPool();
        TestProbe<Evaluator.Reply> probe = KIT.createTestProbe();
        KIT.spawn(Evaluator.create(5, new Prompt.Continuous(new double[] {0}), Evaluator.TestSet.accuracyOnly(rows, labels, 2), pool, probe.getRef()));

        for (int scored : new int[] {32, 64, 96}) { // chunks of 32 rows: each crosses at least one tenth
            Evaluator.Progress progress = probe.expectMessageClass(Evaluator.Progress.class);
            assertEquals(5, progress.round());
            assertEquals(scored, progress.scoredRows());
            assertEquals(100, progress.totalRows());
        }
        Evaluator.Outcome outcome = probe.expectMessageClass(Evaluator.Outcome.class);
        assertNull(outcome.failure());
        assertEquals(0.75, outcome.accuracy(), 1e-12, "rows 75 to 99 score the other class");
        assertEquals(Map.of(), outcome.taskMetrics());
    }

    @Test
    void reportsTheTasksOtherMetricsBesideAccuracy() {
        TestProbe<Evaluator.Reply> probe = KIT.createTestProbe();
        Evaluator.TestSet testSet = new Evaluator.TestSet(ROWS, LABELS, 2,
                List.of(TaskMetric.F1, TaskMetric.ACCURACY, TaskMetric.MCC), 1);
        KIT.spawn(Evaluator.create(1, new Prompt.Continuous(new double[] {0}), testSet, parityPool(), probe.getRef()));
        Evaluator.Outcome outcome = probe.fishForMessage(Duration.ofSeconds(10), reply -> reply instanceof
                Evaluator.Outcome ? FishingOutcomes.complete() : FishingOutcomes.continueAndIgnore()).stream()
                .map(Evaluator.Outcome.class::cast).reduce((a, b) -> b).orElseThrow();
        // true 0: 38 right, 12 wrong; true 1: 37 right, 13 wrong
        assertEquals(0.75, outcome.accuracy(), 1e-12);
        assertEquals(List.of("f1", "mcc"), List.copyOf(outcome.taskMetrics().keySet()));
        assertEquals(2.0 * 37 / (2 * 37 + 12 + 13), outcome.taskMetrics().get("f1"), 1e-12);
        assertEquals((38.0 * 37 - 12 * 13) / Math.sqrt(49.0 * 50 * 51 * 50), outcome.taskMetrics().get("mcc"), 1e-12);
    }

    private static ActorRef<InferencePool.Request> parityPool() {
        return KIT.spawn(Behaviors.receiveMessage(score -> {
            float[][] scores = new float[score.rows().size()][];
            for (int i = 0; i < scores.length; i++) {
                scores[i] = score.rows().get(i)[0] % 2 == 0 ? new float[] {1, 0} : new float[] {0, 1};
            }
            score.replyTo().tell(new InferencePool.Scored(score.requestId(), scores));
            return Behaviors.same();
        }));
    }
}
