package dev.fedbpt.actors;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
import com.typesafe.config.ConfigFactory;
import dev.fedbpt.engine.method.Prompt;
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
        pool.tell(new InferencePool.Score(7, new Prompt.Continuous(new double[] {0.5}), rows, probe.getRef()));

        InferencePool.Scored scored = probe.expectMessageClass(InferencePool.Scored.class);
        for (int i = 0; i < rows.size(); i++) {
            assertEquals(rows.get(i).length, scored.scores()[i][0], "row " + i + " keeps its place in the reply");
        }
        assertEquals(List.of(List.of(3, 3, 3, 3), List.of(30, 30, 30, 30)), batchLengths,
                "arrival order would pad every batch to 30 tokens");
    }

    @Test
    void eachKindOfPromptReachesTheModelAsItsInput() {
        int[] row = {101, 5, 102};
        assertEquals(null, InferencePool.modelInput(null, row).z());
        assertArrayEquals(new double[] {0.5}, InferencePool.modelInput(new Prompt.Continuous(new double[] {0.5}), row).z());
        assertArrayEquals(new int[] {101, 9, 5, 102},
                InferencePool.modelInput(new Prompt.Tokens(new int[] {9}), row).tokenIds());
        assertArrayEquals(new float[] {1, 2, 3, 4},
                InferencePool.modelInput(new Prompt.Embeddings(new float[][] {{1, 2}, {3, 4}}), row).embeds());
    }
}
