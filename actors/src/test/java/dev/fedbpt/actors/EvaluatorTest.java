package dev.fedbpt.actors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
import akka.actor.typed.javadsl.Behaviors;
import com.typesafe.config.ConfigFactory;
import dev.fedbpt.engine.method.Prompt;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

class EvaluatorTest {
    private static final ActorTestKit KIT = ActorTestKit.create(AkkaDefaults.over(ConfigFactory.empty()));

    @AfterAll
    static void shutdown() {
        KIT.shutdownTestKit();
    }

    @Test
    void reportsProgressAsEachTenthOfTheRowsIsScoredThenTheAccuracy() {
        // 100 rows, labels 0 and 1 in turn; the pool scores class 1 highest when a row's only token is odd.
        List<int[]> rows = new ArrayList<>();
        int[] labels = new int[100];
        for (int i = 0; i < 100; i++) {
            rows.add(new int[] {i < 75 ? i : i + 1});
            labels[i] = i % 2;
        }
        ActorRef<InferencePool.Score> pool = KIT.spawn(Behaviors.receiveMessage(score -> {
            float[][] scores = new float[score.rows().size()][];
            for (int i = 0; i < scores.length; i++) {
                scores[i] = score.rows().get(i)[0] % 2 == 0 ? new float[] {1, 0} : new float[] {0, 1};
            }
            score.replyTo().tell(new InferencePool.Scored(score.requestId(), scores));
            return Behaviors.same();
        }));
        TestProbe<Evaluator.Reply> probe = KIT.createTestProbe();
        KIT.spawn(Evaluator.create(5, new Prompt.Continuous(new double[] {0}), new Evaluator.TestSet(rows, labels), pool, probe.getRef()));

        for (int scored : new int[] {32, 64, 96}) { // chunks of 32 rows: each crosses at least one tenth
            Evaluator.Progress progress = probe.expectMessageClass(Evaluator.Progress.class);
            assertEquals(5, progress.round());
            assertEquals(scored, progress.scoredRows());
            assertEquals(100, progress.totalRows());
        }
        Evaluator.Outcome outcome = probe.expectMessageClass(Evaluator.Outcome.class);
        assertNull(outcome.failure());
        assertEquals(0.75, outcome.accuracy(), 1e-12, "rows 75 to 99 score the other class");
    }
}
