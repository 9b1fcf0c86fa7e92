package dev.fedbpt.engine.fedbbpt;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fedbpt.engine.data.LocalData;
import dev.fedbpt.engine.data.Vocabulary;
import dev.fedbpt.engine.method.ClientProcedure;
import dev.fedbpt.engine.method.ClientTask;
import dev.fedbpt.engine.method.RoundUpdate;
import dev.fedbpt.engine.method.Upload;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The counts round: what a client counts and sends, and the candidate list the server builds from the sums. */
class CandidatesTest {
    private static final Vocabulary VOCAB = new Vocabulary(30, new int[] {0, 1, 2});

    // The corpus: sentences "5 6 7", "5 6 8" (client 0) and "7 8 7", "9 5 6" (client 1), each in [CLS]=0 ... [SEP]=1.
    // Tokens: c(5) = c(6) = c(7) = 3, c(8) = 2, c(9) = 1. Pairs: c(5 6) = 3, c(6 7) = c(6 8) = c(7 8) = c(8 7) =
    // c(9 5) = 1; total = 8 pairs. PMI(5 6) = log(8 * 3 / (3 * 3)) = log(8/3) = 0.981 = PMI(9 5);
    // PMI(6 8) = PMI(7 8) = PMI(8 7) = log(8/6) = 0.288; PMI(6 7) = log(8/9) < 0.
    private static final List<LocalData> CLIENTS = List.of(
            new LocalData(List.of(new int[] {0, 5, 6, 7, 1}, new int[] {0, 5, 6, 8, 1}), new int[] {0, 1}, 2),
            new LocalData(List.of(new int[] {0, 7, 8, 7, 1}, new int[] {0, 9, 5, 6, 1}), new int[] {1, 0}, 2));

    private static TokenCounts pooled() {
        return TokenCounts.pool(List.of(TokenCounts.count(0, 0, CLIENTS.get(0), VOCAB),
                TokenCounts.count(0, 1, CLIENTS.get(1), VOCAB)));
    }

    @Test
    void aClientCountsTokensAndAdjacentPairsWithinSentencesOnly() {
        // first and last token left out even when not special; a special id in the middle splits the row
        LocalData data = new LocalData(List.of(new int[] {3, 5, 6, 2, 7, 5, 4}, new int[] {0, 5, 6, 1}),
                new int[] {0, 1}, 2);
        CountsUpload u = TokenCounts.count(0, 4, data, VOCAB);
        assertArrayEquals(new int[] {5, 6, 7}, u.tokens());
        assertArrayEquals(new int[] {3, 2, 1}, u.tokenCounts());
        assertArrayEquals(new int[] {5, 7}, u.pairFirst());
        assertArrayEquals(new int[] {6, 5}, u.pairSecond());
        assertArrayEquals(new int[] {2, 1}, u.pairCounts());
        assertEquals(2, u.sampleCount());
        assertEquals(5, u.entries());
    }

    @Test
    void countsArePooledExactly() {
        TokenCounts pooled = pooled();
        assertEquals(Map.of(5, 3L, 6, 3L, 7, 3L, 8, 2L, 9, 1L), pooled.tokens());
        assertEquals(3, pooled.pairCount(5, 6));
        assertEquals(1, pooled.pairCount(9, 5));
        assertEquals(0, pooled.pairCount(6, 5));
        assertEquals(6, pooled.pairs().size());
    }

    @Test
    void pmiJoinsPairsAndOrdersTheCandidatesAsBdplOrdersItsLists() {
        // threshold 0.5, min count 0: joined (5 6) and (9 5). 1-grams: 7 (3 alone) and 8 (2 alone); 5 has at
        // least 3 - 1 - 3 < 1 occurrence alone, 6 at least 3 - 3 = 0, 9 at least 1 - 1 = 0: no 1-grams.
        // n-grams by (frequency, ids) in reverse: (7):3, (5 6):3, (8):2, (9 5):1 -> tokens 7 5 6 8 9.
        // (BDPL's own segmentation of these sentences, [5 6][7] [5 6][8] [7][8][7] [9 5 6], recounted, gives
        // (7):3, (5 6):3, (8):2, (9 5 6):1: the same list.)
        assertArrayEquals(new int[] {7, 5, 6, 8, 9}, PmiCandidates.choose(pooled(), 10, 0.5, 0));
        assertArrayEquals(new int[] {7, 5, 6}, PmiCandidates.choose(pooled(), 3, 0.5, 0));
        // BDPL's threshold 1.0 joins nothing (0.981 < 1): plain frequency, ties by decreasing id
        assertArrayEquals(new int[] {7, 6, 5, 8, 9}, PmiCandidates.choose(pooled(), 10, 1.0, 0));
        // min count 1: 9 and every pair but (5 6) are dropped (total stays 8); n-grams (7):3, (5 6):3, (8):2; the
        // list is padded with the most frequent remaining token, 9
        assertArrayEquals(new int[] {7, 5, 6, 8}, PmiCandidates.choose(pooled(), 4, 0.5, 1));
        assertArrayEquals(new int[] {7, 5, 6, 8, 9}, PmiCandidates.choose(pooled(), 5, 0.5, 1));
    }

    @Test
    void theCountsRoundUploadsOnlyCountsCallsNoApiAndStartsThetaUniform() {
        FedBbptConfig config = new FedBbptConfig(4, 3, 5, 1e-4, 0.1, 3, 128, 8000, FedBbptConfig.AdamState.PERSIST,
                FedBbptConfig.Weights.UNIFORM, 0.5, 0);
        FedBbptMethod method = new FedBbptMethod("fed-bbpt", config);
        FedBbptState start = method.initialize();
        assertNull(method.evaluationPrompt(start));
        assertEquals(List.of("api_calls", "mean_max_probability", "candidates"),
                List.copyOf(method.metrics(start).keySet()));
        assertEquals(0.0, method.metrics(start).get("candidates"));

        Upload[] uploads = new Upload[2];
        for (int k = 1; k >= 0; k--) { // arrival order does not matter
            ClientProcedure p = method.client(method.configure(start, 0),
                    new ClientTask(k, 0, CLIENTS.get(k), VOCAB, 42, null));
            ClientProcedure.Finished done = assertInstanceOf(ClientProcedure.Finished.class, p.next());
            assertNull(done.memory());
            uploads[k] = assertInstanceOf(CountsUpload.class, done.upload());
            assertEquals(0.0, uploads[k].loss());
            assertNull(method.screen(start, uploads[k]));
        }
        long counts = RoundUpdate.payloadSize(uploads[0]); // client 0: tokens 5 6 7 8; pairs (5 6) (6 7) (6 8)
        assertTrue(counts > 8L * (4 + 3) && counts < 8L * (4 + 3) + 64, counts + " bytes");
        FedBbptState next = method.aggregate(start, List.of(uploads[1], uploads[0]));
        assertEquals(1, next.round());
        assertArrayEquals(new int[] {7, 5, 6}, next.candidates());
        for (double[] row : next.theta()) {
            assertArrayEquals(new double[] {1.0 / 3, 1.0 / 3, 1.0 / 3}, row);
        }
        assertEquals(0L, next.apiCalls());
        Map<String, Double> metrics = method.metrics(next);
        assertEquals(3.0, metrics.get("candidates"));
        assertEquals(1.0 / 3, metrics.get("mean_max_probability"), 1e-15);
        assertEquals(0.0, metrics.get("api_calls"));
        long down = RoundUpdate.payloadSize(method.configure(next, 1)); // 4 positions x 3 candidates' probabilities
        assertTrue(down > 4L * 4 * 3, down + " bytes");
        assertFalse(method.screen(next, uploads[0]) == null, "a counts upload is refused once candidates exist");
        assertTrue(method.screen(start, new ThetaUpload(0, 0, 1, 1, next.theta(), 0)) != null);
    }
}
