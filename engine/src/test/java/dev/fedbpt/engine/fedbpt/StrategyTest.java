package dev.fedbpt.engine.fedbpt;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.fedbpt.engine.cmaes.CmaesParameters;
import dev.fedbpt.engine.cmaes.CmaesState;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

class StrategyTest {
    static LocalResult result(int client, double[] mean, double[] sigmas, double loss, int samples, CmaesState local) {
        return new LocalResult(0, client, mean, sigmas, loss, samples, local);
    }

    static CmaesState scaledIdentity(double[] mean, double sigma, double scale) {
        CmaesState s = CmaesState.initial(mean, sigma);
        for (int i = 0; i < mean.length; i++) {
            s.covariance()[i][i] = scale;
        }
        return s;
    }

    private static List<LocalResult> fourClients() {
        CmaesState any = CmaesState.initial(new double[2], 1);
        List<LocalResult> rs = new ArrayList<>();
        rs.add(result(0, new double[] {1, 0}, new double[] {1, 1}, 0.1, 4, any));
        rs.add(result(1, new double[] {0, 1}, new double[] {2, 2}, 0.2, 4, any));
        rs.add(result(2, new double[] {10, 10}, new double[] {3, 3}, 0.3, 4, any));
        rs.add(result(3, new double[] {-10, 5}, new double[] {1, 1}, 0.4, 4, any));
        return rs;
    }

    @Test
    void paperEq6StepLength() {
        List<LocalResult> sorted = fourClients();
        // best |S|/2 = 2 clients: sigmas^2 = 1+1+4+4 = 10; sigma' = 2 sqrt(10 / (4 * 5)) = 2 sqrt(0.5) = sqrt(2)
        assertEquals(Math.sqrt(2), FedBptStrategy.serverStep(FedBptStrategy.StepRule.PAPER_EQ6, sorted, 5), 1e-15);
        // all 4: 10 + 18 + 2 = 30; sigma' = sqrt(30 / 4 / floor(5/2)) = sqrt(3.75)
        assertEquals(Math.sqrt(3.75), FedBptStrategy.serverStep(FedBptStrategy.StepRule.REFERENCE_CODE, sorted, 5),
                1e-15);
    }

    @Test
    void paperServerUpdateAveragesTheBestHalfAndAdaptsSigma() {
        FedBptStrategy s = new FedBptStrategy(FedBptStrategy.StepRule.PAPER_EQ6, 5, 2);
        GlobalState g0 = new GlobalState(0, CmaesState.initial(new double[2], 1.0));
        GlobalState g1 = s.aggregate(g0, fourClients());
        assertEquals(1, g1.round());
        // equal weights over the 2 lowest-loss means (1,0), (0,1) -> (0.5, 0.5)
        assertArrayEquals(new double[] {0.5, 0.5}, g1.cmaes().mean(), 1e-12);
        // CSA from zero path with C = I: |p_sigma| = sqrt(cs (2 - cs) muEff) |y_w|, y_w = (0.5, 0.5) / sigma', muEff = 2
        CmaesParameters p = CmaesParameters.equalWeights(2, 4, 2);
        double sp = Math.sqrt(2);
        double ps = Math.sqrt(p.cSigma() * (2 - p.cSigma()) * 2) * Math.sqrt(0.5) / sp;
        // the adaptation factor applies to the old global sigma (1.0), not to sigma'
        double expected = 1.0 * Math.exp(Math.min(1, p.cSigma() / p.dSigma() * (ps / p.chiN() - 1)));
        assertEquals(expected, g1.cmaes().sigma(), 1e-12);
        assertEquals(1, g1.cmaes().generation());
        // arrival order does not matter
        List<LocalResult> shuffled = fourClients();
        Collections.reverse(shuffled);
        assertEquals(g1, s.aggregate(g0, shuffled));
    }

    @Test
    void referenceRuleScalesThePreviousSigmaByTheStepFactor() {
        FedBptStrategy s = new FedBptStrategy(FedBptStrategy.StepRule.REFERENCE_CODE, 5, 2);
        GlobalState g0 = new GlobalState(0, CmaesState.initial(new double[2], 0.8));
        GlobalState g1 = s.aggregate(g0, fourClients());
        // global_es.py:133: sigma_{t+1} = sigma_t * sigma_after_tell / sigma'; its clamp (:135-142) never changes it.
        double sigma = g1.cmaes().sigma();
        double sp = Math.sqrt(3.75);
        var server = new dev.fedbpt.engine.cmaes.Cmaes(g0.cmaes().withSigma(sp), CmaesParameters.logWeights(2, 4, 4));
        List<LocalResult> rs = fourClients();
        server.tell(rs.stream().map(LocalResult::mean).toArray(double[][]::new),
                rs.stream().mapToDouble(LocalResult::loss).toArray());
        assertEquals(0.8 * (server.sigma() / sp), sigma, 1e-15);
        // log weights over all 4 clients, w_i ~ ln(4.5) - ln i
        double[] w = {Math.log(4.5), Math.log(4.5) - Math.log(2), Math.log(4.5) - Math.log(3), Math.log(4.5) - Math.log(4)};
        double sum = w[0] + w[1] + w[2] + w[3];
        double mx = (w[0] * 1 + w[2] * 10 - w[3] * 10) / sum;
        double my = (w[1] * 1 + w[2] * 10 + w[3] * 5) / sum;
        assertArrayEquals(new double[] {mx, my}, g1.cmaes().mean(), 1e-12);
    }

    @Test
    void fedAvgIsSampleWeighted() {
        // p = 1/4, 3/4: mean (0,4),(4,0) -> (3,1); sigma 1,2 -> 1.75; C = I, 2I -> 1.75 I
        List<LocalResult> rs = List.of(
                result(0, new double[] {0, 4}, new double[] {1}, 0.5, 1, scaledIdentity(new double[] {0, 4}, 1, 1)),
                result(1, new double[] {4, 0}, new double[] {2}, 0.1, 3, scaledIdentity(new double[] {4, 0}, 2, 2)));
        GlobalState g = new FedAvgBbtStrategy().aggregate(new GlobalState(0, CmaesState.initial(new double[2], 1)), rs);
        assertArrayEquals(new double[] {3, 1}, g.cmaes().mean(), 1e-15);
        assertEquals(1.75, g.cmaes().sigma(), 1e-15);
        assertArrayEquals(new double[] {1.75, 0}, g.cmaes().covariance()[0], 1e-15);
        assertArrayEquals(new double[] {0, 1.75}, g.cmaes().covariance()[1], 1e-15);
        assertEquals(1, g.round());
    }

    @Test
    void fedAvgAveragesTheEvolutionPathsOrResetsThemLikeAFreshSearch() {
        // p = 1/4, 3/4: paths (4,0),(0,4) -> (1,3); (0,8),(8,0) -> (6,2); generations 16, 24
        List<LocalResult> rs = List.of(
                result(0, new double[] {0, 4}, new double[] {1}, 0.5, 1, new CmaesState(new double[] {0, 4}, 1,
                        new double[][] {{1, 0}, {0, 1}}, new double[] {4, 0}, new double[] {0, 8}, 16)),
                result(1, new double[] {4, 0}, new double[] {2}, 0.1, 3, new CmaesState(new double[] {4, 0}, 2,
                        new double[][] {{2, 0}, {0, 2}}, new double[] {0, 4}, new double[] {8, 0}, 24)));
        GlobalState g0 = new GlobalState(0, CmaesState.initial(new double[2], 1));

        CmaesState averaged = new FedAvgBbtStrategy(FedAvgBbtStrategy.Paths.AVERAGE).aggregate(g0, rs).cmaes();
        assertArrayEquals(new double[] {1, 3}, averaged.pathSigma(), 1e-15);
        assertArrayEquals(new double[] {6, 2}, averaged.pathC(), 1e-15);
        assertEquals(24, averaged.generation());
        assertEquals(averaged, new FedAvgBbtStrategy().aggregate(g0, rs).cmaes(), "averaging is the default");

        CmaesState reset = new FedAvgBbtStrategy(FedAvgBbtStrategy.Paths.RESET).aggregate(g0, rs).cmaes();
        assertArrayEquals(new double[] {0, 0}, reset.pathSigma());
        assertArrayEquals(new double[] {0, 0}, reset.pathC());
        assertEquals(0, reset.generation());
        assertArrayEquals(averaged.mean(), reset.mean());
        assertEquals(averaged.sigma(), reset.sigma());
        assertArrayEquals(averaged.covariance()[0], reset.covariance()[0]);
        assertArrayEquals(averaged.covariance()[1], reset.covariance()[1]);
    }

    @Test
    void rejectsInconsistentResults() {
        FedBptStrategy s = new FedBptStrategy(5, 3); // expects 3 sigmas
        GlobalState g0 = new GlobalState(0, CmaesState.initial(new double[2], 1.0));
        assertThrows(IllegalArgumentException.class, () -> s.aggregate(g0, fourClients()));
        assertThrows(IllegalArgumentException.class, () -> s.aggregate(g0, List.of()));
        assertThrows(IllegalArgumentException.class,
                () -> new FedAvgBbtStrategy().aggregate(new GlobalState(1, g0.cmaes()), fourClients()));
    }

    @Test
    void preparingTheDecompositionAheadGivesTheSameBytes() {
        // A global state two rounds in, so its covariance is a full matrix the eigensolver has to decompose.
        int d = 6;
        GlobalState global = new GlobalState(0, CmaesState.initial(new double[d], 1.0));
        for (int round = 0; round < 2; round++) {
            List<LocalResult> results = new ArrayList<>();
            for (int client = 0; client < 4; client++) {
                double[] mean = new double[d];
                for (int i = 0; i < d; i++) {
                    mean[i] = Math.sin(31 * round + 7 * client + i);
                }
                results.add(new LocalResult(round, client, mean, new double[] {0.9, 0.8}, 0.1 * client, 3, null));
            }
            global = new FedBptStrategy(5, 2).aggregate(global, results);
        }
        List<LocalResult> last = new ArrayList<>();
        for (int client = 0; client < 4; client++) {
            double[] mean = new double[d];
            mean[client] = 1.0 + client;
            last.add(new LocalResult(2, client, mean, new double[] {0.7, 0.6}, 1.0 / (client + 1), 3, null));
        }
        for (FedBptStrategy.StepRule rule : FedBptStrategy.StepRule.values()) {
            FedBptStrategy prepared = new FedBptStrategy(rule, 5, 2);
            prepared.prepare(global);
            assertEquals(new FedBptStrategy(rule, 5, 2).aggregate(global, last).cmaes(),
                    prepared.aggregate(global, last).cmaes(), rule.name());
        }
    }
}
