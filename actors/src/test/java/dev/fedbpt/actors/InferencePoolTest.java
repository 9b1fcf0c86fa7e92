package dev.fedbpt.actors;

import static org.junit.jupiter.api.Assertions.assertEquals;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
import com.typesafe.config.ConfigFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

class InferencePoolTest {
    private static final ActorTestKit KIT = ActorTestKit.create(AkkaDefaults.over(ConfigFactory.empty()));

    @AfterAll
    static void shutdown() {
        KIT.shutdownTestKit();
    }

    @Test
    void batchesGroupRowsOfSimilarLengthAndRepliesKeepRowOrder() {
        List<List<Integer>> batchLengths = Collections.synchronizedList(new ArrayList<>());
        RowScorer scorer = rows -> {
            batchLengths.add(rows.stream().map(row -> row.tokenIds().length).toList());
            float[][] scores = new float[rows.size()][];
            for (int i = 0; i < rows.size(); i++) {
                scores[i] = new float[] {rows.get(i).tokenIds().length};
            }
            return scores;
        };
        var settings = new InferencePool.Settings(4, 10_000, Duration.ofMillis(50), 100, 3);
        ActorRef<InferencePool.Command> pool = KIT.spawn(InferencePool.create(settings, List.of(scorer),
                FaultInjector.NONE));
        TestProbe<InferencePool.Reply> probe = KIT.createTestProbe();
        List<int[]> rows = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            rows.add(new int[i % 2 == 0 ? 3 : 30]); // short and long rows in turn
        }
        pool.tell(new InferencePool.Score(7, new double[] {0.5}, rows, probe.getRef()));

        InferencePool.Scored scored = probe.expectMessageClass(InferencePool.Scored.class);
        for (int i = 0; i < rows.size(); i++) {
            assertEquals(rows.get(i).length, scored.scores()[i][0], "row " + i + " keeps its place in the reply");
        }
        assertEquals(List.of(List.of(3, 3, 3, 3), List.of(30, 30, 30, 30)), batchLengths,
                "arrival order would pad every batch to 30 tokens");
    }
}
