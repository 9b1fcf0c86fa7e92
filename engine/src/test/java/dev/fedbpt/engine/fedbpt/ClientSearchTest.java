package dev.fedbpt.engine.fedbpt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fedbpt.engine.cmaes.CmaesState;
import dev.fedbpt.engine.data.LocalData;
import dev.fedbpt.engine.data.Vocabulary;
import dev.fedbpt.engine.method.ClientProcedure;
import dev.fedbpt.engine.method.Prompt;
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

    /** Each prompt's scores on the clean rows followed by those on the perturbed rows (null: none). */
    static float[][][] joined(float[][][] clean, float[][][] perturbed) {
        if (perturbed == null) {
            return clean;
        }
        float[][][] out = new float[clean.length][][];
        for (int k = 0; k < clean.length; k++) {
            out[k] = new float[clean[k].length + perturbed[k].length][];
            System.arraycopy(clean[k], 0, out[k], 0, clean[k].length);
            System.arraycopy(perturbed[k], 0, out[k], clean[k].length, perturbed[k].length);
        }
        return out;
    }

    static double[] z(ClientProcedure.ScorePrompts request, int k) {
        return ((Prompt.Continuous) request.prompts().get(k)).z();
    }

    @Test
    void protocolIterationsThenFinalEvaluationThenDone() {
        ClientSearchConfig cfg = new ClientSearchConfig(4, 5, 0.5);
        ClientSearch cs = new ClientSearch(CmaesState.initial(new double[7], 1.0), cfg, DATA, VOCAB, 9, 2, 3);
        for (int j = 0; j < 4; j++) {
            ClientProcedure.ScorePrompts e = (ClientProcedure.ScorePrompts) cs.next();
            assertEquals(j, e.step());
            assertEquals(5, e.prompts().size());
            assertEquals(7, z(e, 0).length);
            assertEquals(6, e.rows().size(), "3 clean rows, then their 3 perturbed copies");
            assertTrue(java.util.Arrays.equals(DATA.tokenIds().get(2), e.rows().get(2)));
            cs.onScores(joined(scores(5, 3, 3, j), scores(5, 3, 3, 2 * j)));
        }
        ClientProcedure.ScorePrompts last = (ClientProcedure.ScorePrompts) cs.next();
        assertEquals(4, last.step());
        assertEquals(1, last.prompts().size());
        assertEquals(3, last.rows().size(), "the final mean is scored on the clean rows alone");
        cs.onScores(scores(1, 3, 3, 0));
        ClientProcedure.Finished finished = (ClientProcedure.Finished) cs.next();
        assertNull(finished.memory(), "FedBPT's clients keep nothing across rounds");
        LocalResult r = (LocalResult) finished.upload();
        assertEquals(4, r.sigmas().length);
        assertEquals(2, r.round());
        assertEquals(3, r.clientId());
        assertEquals(3, r.sampleCount());
        assertArrayEqualsBits(z(last, 0), r.mean());
        // scores row: [0.5, 0, 0] for labels 0,1,2 -> mean CE = log(e^0.5 + 2) - (0.5 + 0 + 0)/3
        assertEquals(Math.log(Math.exp(0.5) + 2) - 0.5 / 3, r.loss(), 1e-6);
        // The sigma list holds the sigma each iteration sampled with: s_0 = the start's, and not the last one.
        assertEquals(1.0, r.sigmas()[0]);
        assertNotEquals(r.sigmas()[3], replayed(r, cfg, new double[7]).sigma());
        assertThrows(IllegalStateException.class, () -> cs.onScores(scores(1, 3, 3, 0)));
    }

    @Test
    void withoutLocalStateUploadTheResultCarriesOnlyWhatFedBptSends() {
        ClientSearchConfig withStates = new ClientSearchConfig(2, 5, 0.5, true);
        LocalResult full = finish(withStates);
        LocalResult meanOnly = finish(new ClientSearchConfig(2, 5, 0.5, false));
        assertNull(full.localState(), "the server replays it from the told fitness values");
        assertEquals(2, full.told().length);
        assertArrayEqualsBits(full.mean(), replayed(full, withStates, new double[7]).mean());
        assertNull(meanOnly.localState());
        assertNull(meanOnly.told());
        assertArrayEqualsBits(full.mean(), meanOnly.mean());
        assertArrayEqualsBits(full.sigmas(), meanOnly.sigmas());
        assertEquals(full.loss(), meanOnly.loss());
        assertThrows(IllegalArgumentException.class, () -> new FedAvgBbtStrategy().aggregate(
                new GlobalState(2, CmaesState.initial(new double[7], 1.0)), java.util.List.of(meanOnly)));
    }

    /** The local state the server rebuilds from the result's told fitness values (seed 9, round 2, start C = I). */
    static CmaesState replayed(LocalResult r, ClientSearchConfig cfg, double[] startMean) {
        return ClientSearch.replay(ClientSearch.startingPoint(CmaesState.initial(startMean, 1.0), cfg), cfg, 9, 2,
                r.clientId(), r.told()).state();
    }

    private static LocalResult finish(ClientSearchConfig cfg) {
        ClientSearch cs = new ClientSearch(CmaesState.initial(new double[7], 1.0), cfg, DATA, VOCAB, 9, 2, 3);
        ClientProcedure.Step step = cs.next();
        for (int j = 0; step instanceof ClientProcedure.ScorePrompts e; j++, step = cs.next()) {
            int n = e.prompts().size();
            cs.onScores(e.rows().size() == 3 ? scores(n, 3, 3, j) : joined(scores(n, 3, 3, j), scores(n, 3, 3, 2 * j)));
        }
        return (LocalResult) ((ClientProcedure.Finished) step).upload();
    }

    private static void assertArrayEqualsBits(double[] a, double[] b) {
        assertTrue(java.util.Arrays.equals(a, b));
    }

    @Test
    void wrongShapesAreRejectedWithClearMessages() {
        ClientSearch cs = new ClientSearch(CmaesState.initial(new double[4], 1.0), new ClientSearchConfig(2, 5, 0.5),
                DATA, VOCAB, 1, 0, 0);
        var e1 = assertThrows(IllegalArgumentException.class, () -> cs.onScores(scores(4, 6, 3, 0)));
        assertTrue(e1.getMessage().contains("prompts"), e1.getMessage());
        assertThrows(IllegalArgumentException.class, () -> cs.onScores(scores(5, 5, 3, 0)));
        assertThrows(IllegalArgumentException.class, () -> cs.onScores(scores(5, 6, 2, 0)));
        assertThrows(IllegalArgumentException.class, () -> cs.onScores(scores(5, 3, 3, 0)), "perturbed rows missing");
        assertThrows(IllegalArgumentException.class, () -> cs.onScores(null));
        // still pending the same step after rejected input
        assertEquals(0, ((ClientProcedure.ScorePrompts) cs.next()).step());
    }

    @Test
    void zeroRateHasNoPerturbedRowsAndNonFiniteScoresAreCounted() {
        ClientSearch cs = new ClientSearch(CmaesState.initial(new double[4], 1.0), new ClientSearchConfig(1, 5, 0.0),
                DATA, VOCAB, 1, 0, 0);
        assertEquals(3, ((ClientProcedure.ScorePrompts) cs.next()).rows().size(), "no perturbed rows");
        float[][][] s = scores(5, 3, 3, 0);
        s[2][1][0] = Float.NaN;
        s[4][0][2] = Float.POSITIVE_INFINITY;
        cs.onScores(s);
        assertEquals(2, cs.nonFiniteCount());
        assertThrows(IllegalArgumentException.class, () -> cs.onScores(scores(1, 6, 3, 0)));
    }
}
