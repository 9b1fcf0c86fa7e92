package dev.fedbpt.engine.fedbpt;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fedbpt.engine.data.LocalData;
import dev.fedbpt.engine.data.Vocabulary;
import dev.fedbpt.engine.random.Purpose;
import dev.fedbpt.engine.random.Rng;
import java.util.ArrayList;
import java.util.List;
import org.apache.commons.math3.random.RandomGenerator;
import org.junit.jupiter.api.Test;

class LocalSimulationTest {
    static final Vocabulary VOCAB = new Vocabulary(100, new int[] {0, 1, 2});

    /** Client k's rows carry its id as first content token; labels alternate between 2 classes. */
    static List<LocalData> clients(int count, int rowsPerClient) {
        List<LocalData> out = new ArrayList<>();
        for (int k = 0; k < count; k++) {
            List<int[]> rows = new ArrayList<>();
            int[] labels = new int[rowsPerClient];
            for (int r = 0; r < rowsPerClient; r++) {
                rows.add(new int[] {0, 10 + k, 20 + r, 30 + (k * r) % 50, 1});
                labels[r] = (r + k) % 2;
            }
            out.add(new LocalData(rows, labels, 2));
        }
        return out;
    }

    static double[] gaussianVector(int d, double scale, int... coords) {
        RandomGenerator rng = Rng.of(99, Purpose.PROBE, coords);
        double[] v = new double[d];
        for (int i = 0; i < d; i++) {
            v[i] = scale * rng.nextGaussian();
        }
        return v;
    }

    static double dist2(double[] a, double[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            s += (a[i] - b[i]) * (a[i] - b[i]);
        }
        return s;
    }

    /**
     * Fake model: the true class scores -||z - z*_client||^2 / d (client identified by its token), the other class 0,
     * so each client's loss log(1 + exp(dist^2/d)) is minimal at its own optimum z* + offset_client. A small
     * dependence on the content tokens makes perturbed rows score differently.
     */
    static BatchScorer scorer(double[] zStar, double[][] offsets, List<LocalData> data, double tokenEffect) {
        return (z, rows) -> {
            float[][] out = new float[rows.size()][2];
            for (int r = 0; r < rows.size(); r++) {
                int[] row = rows.get(r);
                int client = -1;
                int label = 0;
                for (int k = 0; k < data.size() && client < 0; k++) {
                    for (int rr = 0; rr < data.get(k).size(); rr++) {
                        int[] orig = data.get(k).tokenIds().get(rr);
                        if (orig.length == row.length && orig[2] == row[2] && orig[1] == row[1]) {
                            client = k;
                            label = data.get(k).labels()[rr];
                            break;
                        }
                    }
                }
                if (client < 0) { // perturbed beyond recognition: use the row's position
                    client = 0;
                    label = r % 2;
                }
                double[] target = new double[z.length];
                for (int i = 0; i < z.length; i++) {
                    target[i] = zStar[i] + offsets[client][i];
                }
                int tokenSum = 0;
                for (int t : row) {
                    tokenSum += t;
                }
                double s = -dist2(z, target) / z.length * (1 + tokenEffect * (tokenSum % 7));
                out[r][label] = (float) s;
                out[r][1 - label] = 0f;
            }
            return out;
        };
    }

    @Test
    void wholeExperimentIsBitIdenticalAcrossRunsAndClientOrders() {
        int d = 8;
        List<LocalData> data = clients(4, 3);
        double[][] offsets = new double[4][];
        for (int k = 0; k < 4; k++) {
            offsets[k] = gaussianVector(d, 0.3, 1, k);
        }
        BatchScorer f = scorer(gaussianVector(d, 1, 0), offsets, data, 0.05);
        SimulationConfig cfg = new SimulationConfig(7, 4, 4, 0.75, d, 1.0, new ClientSearchConfig(3, 5, 0.5),
                new FedBptStrategy(5, 3));
        SimulationResult a = LocalSimulation.run(cfg, data, VOCAB, f, false);
        SimulationResult b = LocalSimulation.run(cfg, data, VOCAB, f, false);
        SimulationResult c = LocalSimulation.run(cfg, data, VOCAB, f, true);
        assertEquals(a.states(), b.states());
        assertEquals(a.states(), c.states());
        assertArrayEquals(a.meanClientLoss(), c.meanClientLoss());
        assertArrayEquals(a.sigma(), c.sigma());
        assertEquals(Digests.sha256(a.last().cmaes()), Digests.sha256(c.last().cmaes()));
        assertEquals(4, a.states().size());
        assertEquals(4, a.last().round());
        SimulationResult other = LocalSimulation.run(new SimulationConfig(8, 4, 4, 0.75, d, 1.0,
                new ClientSearchConfig(3, 5, 0.5), new FedBptStrategy(5, 3)), data, VOCAB, f, false);
        assertTrue(!Digests.sha256(a.last().cmaes()).equals(Digests.sha256(other.last().cmaes())),
                "another seed must give another run");
    }

    @Test
    void bothStrategiesApproachTheOptimum() {
        int d = 30;
        int clients = 10;
        List<LocalData> data = clients(clients, 4);
        double[] zStar = gaussianVector(d, 1, 0);
        double[][] offsets = new double[clients][];
        double[] avg = new double[d];
        for (int k = 0; k < clients; k++) {
            offsets[k] = gaussianVector(d, 0.3, 2, k); // non-IID: every client has its own optimum
            for (int i = 0; i < d; i++) {
                avg[i] += offsets[k][i] / clients;
            }
        }
        for (double[] o : offsets) {
            for (int i = 0; i < d; i++) {
                o[i] -= avg[i]; // centred, so z* minimises the clients' mean squared distance
            }
        }
        BatchScorer f = scorer(zStar, offsets, data, 0.0);
        int rounds = 30;
        StringBuilder failures = new StringBuilder();
        for (ServerStrategy strategy : List.of(new FedBptStrategy(5, 8),
                new FedBptStrategy(FedBptStrategy.StepRule.REFERENCE_CODE, 5, 8), new FedAvgBbtStrategy(),
                new FedAvgBbtStrategy(FedAvgBbtStrategy.Paths.RESET))) {
            SimulationConfig cfg = new SimulationConfig(11, rounds, clients, 1.0, d, 1.0,
                    new ClientSearchConfig(8, 5, 0.0), strategy);
            SimulationResult res = LocalSimulation.run(cfg, data, VOCAB, f);
            double start = Math.sqrt(dist2(res.initial().cmaes().mean(), zStar));
            StringBuilder line = new StringBuilder(strategy.name() + " distance to z* per round: "
                    + String.format("%.3f", start));
            for (GlobalState g : res.states()) {
                line.append(String.format(" %.3f", Math.sqrt(dist2(g.cmaes().mean(), zStar))));
            }
            System.out.println(line + " | final sigma " + res.last().cmaes().sigma());
            double end = Math.sqrt(dist2(res.last().cmaes().mean(), zStar));
            failures.append(end < 0.25 * start ? "" : strategy.name() + ": distance " + start + " -> " + end + "; ");
        }
        assertTrue(failures.length() == 0, failures.toString());
    }
}
