package dev.fedbpt.engine.fedbpt;

import static dev.fedbpt.engine.fedbpt.ClientSearchTest.DATA;
import static dev.fedbpt.engine.fedbpt.ClientSearchTest.VOCAB;
import static dev.fedbpt.engine.fedbpt.ClientSearchTest.scores;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fedbpt.engine.cmaes.CmaesState;
import dev.fedbpt.engine.method.ClientProcedure;
import dev.fedbpt.engine.method.Losses;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The reference code's client items of {@link ClientSearchConfig}, each against the paper reading it replaces. */
class ReferenceCodeClientTest {
    private static final ClientSearchConfig REFERENCE = new ClientSearchConfig(4, 5, 0.5, false,
            ClientSearchConfig.Optimizer.PYCMA, ClientSearchConfig.SigmaList.USED,
            ClientSearchConfig.Start.LIGHT_COPY, ClientSearchConfig.Ranking.RATIO_FITNESS,
            ClientSearchConfig.Mask.PER_ROUND);

    /** A global state after some rounds: non-zero paths, iteration counter 7. */
    private static CmaesState global() {
        CmaesState s = CmaesState.initial(new double[6], 0.9);
        double[] ps = {0.1, -0.2, 0.3, 0, 0.5, 0.1};
        return new CmaesState(s.mean(), 0.9, s.covariance(), ps, ps.clone(), 7);
    }

    private static List<ClientProcedure.ScorePrompts> run(ClientSearch cs, int iterations, List<LocalResult> out) {
        List<ClientProcedure.ScorePrompts> steps = new ArrayList<>();
        for (int j = 0; j < iterations; j++) {
            ClientProcedure.ScorePrompts e = (ClientProcedure.ScorePrompts) cs.next();
            steps.add(e);
            cs.onScores(e.rows().size() == 3 ? scores(5, 3, 3, j)
                    : ClientSearchTest.joined(scores(5, 3, 3, j), scores(5, 3, 3, 2 * j + 1)));
        }
        ClientProcedure.ScorePrompts last = (ClientProcedure.ScorePrompts) cs.next();
        steps.add(last);
        cs.onScores(last.rows().size() == 3 ? scores(1, 3, 3, 0)
                : ClientSearchTest.joined(scores(1, 3, 3, 0), scores(1, 3, 3, 3)));
        out.add((LocalResult) ((ClientProcedure.Finished) cs.next()).upload());
        return steps;
    }

    @Test
    void lightCopyStartsWithZeroPathsAndCounterZero() {
        AskTellProbe probe = new AskTellProbe(ClientSearch.startingPoint(global(), REFERENCE).state());
        assertArrayEquals(new double[6], probe.state.pathSigma());
        assertArrayEquals(new double[6], probe.state.pathC());
        assertEquals(0, probe.state.generation());
        assertEquals(0.9, probe.state.sigma());
        CmaesState inherited = ClientSearch.startingPoint(global(), ClientSearchConfig.paper()).state();
        assertEquals(7, inherited.generation());
    }

    private record AskTellProbe(CmaesState state) {}

    @Test
    void perRoundMaskIsTheSameEveryIterationAndScoresTheFinalMeanForTheRatio() {
        List<LocalResult> results = new ArrayList<>();
        List<ClientProcedure.ScorePrompts> steps = run(new ClientSearch(global(), REFERENCE, DATA, VOCAB, 11, 3, 2),
                4, results);
        for (ClientProcedure.ScorePrompts e : steps) {
            assertEquals(6, e.rows().size(), "step " + e.step() + " has the round's perturbed rows");
            for (int r = 3; r < 6; r++) {
                assertSame(steps.get(0).rows().get(r), e.rows().get(r), "the same mask all round");
                // a perturbed copy is read where its clean row is (the mask may have replaced [MASK] itself)
                assertSame(DATA.tokenIds().get(r - 3), e.labelRows().get(r), "label row of perturbed row " + r);
                assertSame(DATA.tokenIds().get(r - 3), e.labelRows().get(r - 3), "label row of clean row " + r);
            }
        }
        LocalResult r = results.get(0);
        // The upload is the final mean's clean / perturbed loss (scores 0 vs 3 per class, plus 0.5 on class 0).
        double clean = Losses.meanCrossEntropy(scores(1, 3, 3, 0)[0], DATA.labels(), 3);
        double perturbed = Losses.meanCrossEntropy(scores(1, 3, 3, 3)[0], DATA.labels(), 3);
        assertEquals(clean / perturbed, r.loss(), 1e-12);
        assertEquals(0.9, r.sigmas()[0], "the sigma list starts with the sigma received");
        assertNull(r.localState());
    }

    @Test
    void perRoundMaskReplacesAnyTokenFromTheWholeVocabularyReproducibly() {
        List<int[]> rows = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            rows.add(new int[] {0, 5, 6, 7, 8, 9, 1});
        }
        List<int[]> a = Perturbation.perturbPerRound(rows, VOCAB, 0.5, 42, 1, 2);
        List<int[]> b = Perturbation.perturbPerRound(rows, VOCAB, 0.5, 42, 1, 2);
        List<int[]> other = Perturbation.perturbPerRound(rows, VOCAB, 0.5, 42, 2, 2);
        int changed = 0;
        int specialChanged = 0;
        int tokens = 0;
        for (int i = 0; i < rows.size(); i++) {
            assertArrayEquals(a.get(i), b.get(i));
            for (int t = 0; t < rows.get(i).length; t++) {
                tokens++;
                if (a.get(i)[t] != rows.get(i)[t]) {
                    changed++;
                    specialChanged += VOCAB.isSpecial(rows.get(i)[t]) ? 1 : 0;
                }
            }
        }
        assertTrue(specialChanged > 0, "special tokens are perturbed too");
        // Bernoulli(0.5) per token, minus replacements that drew the same token (1 in 30): about 0.48 of 1400.
        assertTrue(Math.abs(changed / (double) tokens - 0.5 * 29 / 30) < 0.05, "share changed " + changed);
        boolean differs = false;
        for (int i = 0; i < rows.size(); i++) {
            differs |= !java.util.Arrays.equals(a.get(i), other.get(i));
        }
        assertTrue(differs, "another round draws another mask");
        List<int[]> none = Perturbation.perturbPerRound(rows, VOCAB, 0.0, 42, 1, 2);
        for (int i = 0; i < rows.size(); i++) {
            assertArrayEquals(rows.get(i), none.get(i), "rate 0 changes nothing");
        }
    }

    @Test
    void afterTellSigmaListIsShiftedByOneIteration() {
        ClientSearchConfig used = new ClientSearchConfig(4, 5, 0.5, true);
        ClientSearchConfig afterTell = new ClientSearchConfig(4, 5, 0.5, true, ClientSearchConfig.Optimizer.TUTORIAL,
                ClientSearchConfig.SigmaList.AFTER_TELL, ClientSearchConfig.Start.GLOBAL_STATE,
                ClientSearchConfig.Ranking.CLEAN_LOSS, ClientSearchConfig.Mask.PER_ITERATION);
        List<LocalResult> a = new ArrayList<>();
        List<LocalResult> b = new ArrayList<>();
        run(new ClientSearch(global(), used, DATA, VOCAB, 5, 1, 0), 4, a);
        run(new ClientSearch(global(), afterTell, DATA, VOCAB, 5, 1, 0), 4, b);
        double[] s = a.get(0).sigmas();
        double[] t = b.get(0).sigmas();
        assertEquals(0.9, s[0]);
        for (int j = 0; j < 3; j++) {
            assertEquals(s[j + 1], t[j], "the same search, its list one iteration earlier");
        }
        assertEquals(ClientSearch.replay(ClientSearch.startingPoint(global(), afterTell), afterTell, 5, 1, 0,
                b.get(0).told()).sigma(), t[3]);
        assertArrayEquals(a.get(0).mean(), b.get(0).mean(), "only the uploaded list differs");
    }
}
