package dev.fedbpt.engine.fedbpt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fedbpt.engine.cmaes.CmaesState;
import java.util.List;
import org.junit.jupiter.api.Test;

class ClientSearchTest {
    static final Vocabulary VOCAB = new Vocabulary(30, new int[] {0, 1});
    static final LocalData DATA = new LocalData(List.of(new int[] {0, 5, 6, 1}, new int[] {0, 7, 8, 9, 1},
            new int[] {0, 4, 1}), new int[] {0, 1, 2}, 3);

    static float[][][] scores(int candidates, int rows, int classes, float value) {
        float[][][] s = new float[candidates][rows][classes];
        for (float[][] c : s) {
            for (float[] r : c) {
                java.util.Arrays.fill(r, value);
                r[0] += 0.5f;
            }
        }
        return s;
    }

    @Test
    void protocolIterationsThenFinalEvaluationThenDone() {
        ClientSearchConfig cfg = new ClientSearchConfig(4, 5, 0.5);
        ClientSearch cs = new ClientSearch(CmaesState.initial(new double[7], 1.0), cfg, DATA, VOCAB, 9, 2, 3);
        for (int j = 0; j < 4; j++) {
            SearchStep.Evaluate e = (SearchStep.Evaluate) cs.next();
            assertEquals(j, e.iteration());
            assertEquals(5, e.candidates().length);
            assertEquals(7, e.candidates()[0].length);
            assertEquals(3, e.cleanRows().size());
            assertNotNull(e.perturbedRows());
            assertEquals(3, e.perturbedRows().size());
            cs.onScores(scores(5, 3, 3, j), scores(5, 3, 3, 2 * j));
        }
        SearchStep.Evaluate last = (SearchStep.Evaluate) cs.next();
        assertEquals(4, last.iteration());
        assertEquals(1, last.candidates().length);
        assertNull(last.perturbedRows());
        cs.onScores(scores(1, 3, 3, 0), null);
        LocalResult r = ((SearchStep.Done) cs.next()).result();
        assertEquals(4, r.sigmas().length);
        assertEquals(2, r.round());
        assertEquals(3, r.clientId());
        assertEquals(3, r.sampleCount());
        assertArrayEqualsBits(last.candidates()[0], r.mean());
        // scores row: [0.5, 0, 0] for labels 0,1,2 -> mean CE = log(e^0.5 + 2) - (0.5 + 0 + 0)/3
        assertEquals(Math.log(Math.exp(0.5) + 2) - 0.5 / 3, r.loss(), 1e-6);
        // The sigma list holds the sigma each iteration sampled with: s_0 = the start's, and not the last one.
        assertEquals(1.0, r.sigmas()[0]);
        assertNotEquals(r.sigmas()[3], r.localState().sigma());
        assertThrows(IllegalStateException.class, () -> cs.onScores(scores(1, 3, 3, 0), null));
    }

    @Test
    void withoutLocalStateUploadTheResultCarriesOnlyWhatFedBptSends() {
        LocalResult full = finish(new ClientSearchConfig(2, 5, 0.5, true));
        LocalResult meanOnly = finish(new ClientSearchConfig(2, 5, 0.5, false));
        assertNotNull(full.localState());
        assertNull(meanOnly.localState());
        assertArrayEqualsBits(full.mean(), meanOnly.mean());
        assertArrayEqualsBits(full.sigmas(), meanOnly.sigmas());
        assertEquals(full.loss(), meanOnly.loss());
        assertThrows(IllegalArgumentException.class, () -> new FedAvgBbtStrategy().aggregate(
                new GlobalState(2, CmaesState.initial(new double[7], 1.0)), java.util.List.of(meanOnly)));
    }

    private static LocalResult finish(ClientSearchConfig cfg) {
        ClientSearch cs = new ClientSearch(CmaesState.initial(new double[7], 1.0), cfg, DATA, VOCAB, 9, 2, 3);
        SearchStep step = cs.next();
        for (int j = 0; step instanceof SearchStep.Evaluate e; j++, step = cs.next()) {
            cs.onScores(scores(e.candidates().length, 3, 3, j),
                    e.perturbedRows() == null ? null : scores(e.candidates().length, 3, 3, 2 * j));
        }
        return ((SearchStep.Done) step).result();
    }

    private static void assertArrayEqualsBits(double[] a, double[] b) {
        assertTrue(java.util.Arrays.equals(a, b));
    }

    @Test
    void wrongShapesAreRejectedWithClearMessages() {
        ClientSearch cs = new ClientSearch(CmaesState.initial(new double[4], 1.0), new ClientSearchConfig(2, 5, 0.5),
                DATA, VOCAB, 1, 0, 0);
        var e1 = assertThrows(IllegalArgumentException.class, () -> cs.onScores(scores(4, 3, 3, 0), scores(5, 3, 3, 0)));
        assertTrue(e1.getMessage().contains("candidates"), e1.getMessage());
        assertThrows(IllegalArgumentException.class, () -> cs.onScores(scores(5, 2, 3, 0), scores(5, 3, 3, 0)));
        assertThrows(IllegalArgumentException.class, () -> cs.onScores(scores(5, 3, 2, 0), scores(5, 3, 3, 0)));
        assertThrows(IllegalArgumentException.class, () -> cs.onScores(scores(5, 3, 3, 0), null));
        // still pending the same step after rejected input
        assertEquals(0, ((SearchStep.Evaluate) cs.next()).iteration());
    }

    @Test
    void zeroRateHasNoPerturbedRowsAndNonFiniteScoresAreCounted() {
        ClientSearch cs = new ClientSearch(CmaesState.initial(new double[4], 1.0), new ClientSearchConfig(1, 5, 0.0),
                DATA, VOCAB, 1, 0, 0);
        assertNull(((SearchStep.Evaluate) cs.next()).perturbedRows());
        float[][][] s = scores(5, 3, 3, 0);
        s[2][1][0] = Float.NaN;
        s[4][0][2] = Float.POSITIVE_INFINITY;
        cs.onScores(s, null);
        assertEquals(2, cs.nonFiniteCount());
        assertThrows(IllegalArgumentException.class, () -> cs.onScores(scores(1, 3, 3, 0), scores(1, 3, 3, 0)));
    }
}
