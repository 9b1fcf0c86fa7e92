package dev.fedbpt.engine.fedbbpt;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fedbpt.engine.random.Purpose;
import dev.fedbpt.engine.random.Rng;
import java.util.ArrayList;
import java.util.List;
import org.apache.commons.math3.random.RandomGenerator;
import org.junit.jupiter.api.Test;

/** The simplex projection, the VR-PGE estimate with its clip, and AdamW, against hand-computed numbers. */
class NumericsTest {

    // ---- simplex bisection (spec test vector 2) ----

    @Test
    void bisectionOnAHandComputedRow() {
        // f(v) = 3 clamp(0.5 - v) - 1 on [0, 0.5]: midpoints 0.25 (-0.25), 0.125 (+0.125), 0.1875 (-0.0625),
        // 0.15625 (+0.03125), 0.171875 (-0.015625), 0.1640625 (+0.0078125), 0.16796875 (-0.00390625),
        // 0.166015625 (+0.001953125), 0.1669921875 (-0.0009765625, below 1e-3: stop). All exact in binary.
        double[] row = {0.5, 0.5, 0.5};
        assertEquals(0.1669921875, Simplex.project(row));
        assertArrayEquals(new double[] {0.3330078125, 0.3330078125, 0.3330078125}, row);
    }

    @Test
    void rowsEndOnTheSimplexWhateverTheyStartAs() {
        List<double[]> rows = new ArrayList<>();
        RandomGenerator rng = Rng.of(1, Purpose.BENCHMARK, 7);
        for (int t = 0; t < 300; t++) {
            int n = 1 + rng.nextInt(250);
            double[] row = new double[n];
            double scale = Math.pow(10, rng.nextInt(7) - 4); // 1e-4 .. 1e2
            for (int j = 0; j < n; j++) {
                row[j] = (t % 3 == 0 ? rng.nextGaussian() : rng.nextDouble()) * scale;
            }
            rows.add(row);
        }
        rows.add(new double[] {0, 0, 0, 0});                  // no mass
        rows.add(new double[] {-1, -2, -3});                  // all negative
        rows.add(new double[] {1e6, 0, 0});                   // one huge entry: a bracket BDPL's 21 midpoints miss
        rows.add(new double[] {1e6, 1e6, -1e6});
        rows.add(new double[] {0.2, 0.2, 0.2, 0.2, 0.1899}); // sums below 1 by more than the tolerance
        rows.add(new double[] {1, 0, 0});                     // already a vertex
        rows.add(new double[] {5});                           // one candidate
        rows.add(new double[] {Double.MIN_VALUE, 0, 0});
        rows.add(new double[] {2, 2, 2, 2, 2, 2, 2, 2});      // every entry above 1
        for (double[] row : rows) {
            double[] projected = row.clone();
            Simplex.project(projected);
            double sum = 0;
            for (double x : projected) {
                assertTrue(x >= 0 && x <= 1, "entry " + x);
                sum += x;
            }
            assertEquals(1, sum, Simplex.TOLERANCE, "row of " + row.length + " starting " + row[0]);
        }
    }

    @Test
    void bitIdenticalToBdplWhereverBdplMeetsItsTolerance() {
        RandomGenerator rng = Rng.of(2, Purpose.BENCHMARK, 8);
        int compared = 0;
        for (int t = 0; t < 200; t++) {
            double[] row = new double[200];
            for (int j = 0; j < row.length; j++) { // an AdamW-sized step away from uniform
                row[j] = 1.0 / 200 + (rng.nextDouble() - 0.4) * 1e-4;
            }
            double[] bdpl = bdplProjection(row.clone());
            if (bdpl == null) {
                continue;
            }
            double[] ours = row.clone();
            Simplex.project(ours);
            assertArrayEquals(bdpl, ours);
            compared++;
        }
        assertTrue(compared > 100, "compared " + compared);
    }

    /** run_glue_discrete_LM.py:97-123 transcribed; null where its result misses the 1e-3 tolerance. */
    private static double[] bdplProjection(double[] row) {
        double a = 0;
        double b = Double.NEGATIVE_INFINITY;
        for (double x : row) {
            b = Math.max(b, x);
        }
        int itr = 0;
        double v;
        double obj;
        while (true) {
            itr++;
            v = (a + b) / 2;
            obj = Simplex.excess(row, v);
            if (Math.abs(obj) < 1e-3 || itr > 20) {
                break;
            }
            if (obj < 0) {
                b = v;
            } else {
                a = v;
            }
        }
        if (Math.abs(obj) >= 1e-3) {
            return null;
        }
        for (int j = 0; j < row.length; j++) {
            row[j] = Math.min(1, Math.max(0, row[j] - v));
        }
        return row;
    }

    // ---- VR-PGE (spec test vector 3) ----

    @Test
    void vrPgeOnAHandComputedTwoByThreeExample() {
        double[][] theta = {{0.5, 0.25, 0.25}, {0.2, 0.3, 0.5}};
        int[][] samples = {{0, 1}, {1, 2}, {0, 2}};
        double[] losses = {1, 2, 6};
        // Lbar = 3; c_k = (L_k - Lbar) / (I - 1) = -1, -0.5, 1.5.
        // Row 0, 1/theta = (2, 4, 4): D_0 = (2, -4, -4), D_1 = (-2, 4, -4), D_2 = (2, -4, -4)
        //   G = -1 D_0 - 0.5 D_1 + 1.5 D_2 = (-2+1+3, 4-2-6, 4+2-6) = (2, -4, 0).
        // Row 1, 1/theta = (5, 10/3, 2): sampled 1, 2, 2: D_0 = (-5, 10/3, -2), D_1 = D_2 = (-5, -10/3, 2)
        //   G = (5+2.5-7.5, -10/3+5/3-5, 2-1+3) = (0, -20/3, 4).
        double[][] g = VrPge.gradient(theta, samples, losses);
        assertArrayEquals(new double[] {2, -4, 0}, g[0], 1e-12);
        assertArrayEquals(new double[] {0, -20.0 / 3, 4}, g[1], 1e-12);

        // ||G||_F = sqrt(4 + 16 + 400/9 + 16) > 3: scaled by 3 / (norm + 1e-6) (clip_grad_norm_)
        double norm = Math.sqrt(36 + 400.0 / 9);
        assertEquals(norm, VrPge.clip(g, 3), 1e-12);
        double scale = 3 / (norm + 1e-6);
        assertArrayEquals(new double[] {2 * scale, -4 * scale, 0}, g[0], 1e-12);
        assertArrayEquals(new double[] {0, -20.0 / 3 * scale, 4 * scale}, g[1], 1e-12);

        double[][] small = {{0.5, -1}};
        assertEquals(Math.sqrt(1.25), VrPge.clip(small, 3), 1e-15);
        assertArrayEquals(new double[] {0.5, -1}, small[0]); // below the clip: untouched
    }

    @Test
    void aZeroProbabilityCandidateGetsAZeroGradientWhereBdplGetsNaN() {
        double[][] theta = {{0.5, 0.5, 0}};
        double[][] g = VrPge.gradient(theta, new int[][] {{0}, {1}, {0}}, new double[] {1, 2, 4});
        assertTrue(VrPge.finite(g));
        assertEquals(0.0, g[0][2]);
    }

    @Test
    void vrPgeEstimatesTwiceTheConditionalLossMinusTheMean() {
        // Separable toy loss L(p) = f0(p_0) + f1(p_1); E[G_ij] = 2 (E[L | p_i = j] - E[L]) = 2 (f_i(j) - sum_j' theta_ij' f_i(j')).
        double[][] theta = {{0.5, 0.3, 0.2}, {0.25, 0.25, 0.5}};
        double[][] f = {{1.0, 0.0, 2.0}, {0.5, 1.5, 0.0}};
        int samples = 6;
        int draws = 40000;
        RandomGenerator rng = Rng.of(3, Purpose.BENCHMARK, 9);
        double[][] mean = new double[2][3];
        for (int t = 0; t < draws; t++) {
            int[][] prompts = new int[samples][];
            double[] losses = new double[samples];
            for (int k = 0; k < samples; k++) {
                prompts[k] = BbptClient.samplePrompt(theta, rng);
                losses[k] = f[0][prompts[k][0]] + f[1][prompts[k][1]];
            }
            double[][] g = VrPge.gradient(theta, prompts, losses);
            for (int i = 0; i < 2; i++) {
                for (int j = 0; j < 3; j++) {
                    mean[i][j] += g[i][j] / draws;
                }
            }
        }
        for (int i = 0; i < 2; i++) {
            double fbar = 0;
            for (int j = 0; j < 3; j++) {
                fbar += theta[i][j] * f[i][j];
            }
            for (int j = 0; j < 3; j++) {
                assertEquals(2 * (f[i][j] - fbar), mean[i][j], 0.1, "G[" + i + "][" + j + "]");
            }
        }
        // the descent direction -G raises the probability of each position's best candidate
        assertTrue(mean[0][1] < 0 && mean[1][2] < 0);
    }

    @Test
    void categoricalSamplingFollowsTheRowAndNeverDrawsAZero() {
        double[] row = {0.1, 0, 0.6, 0.3};
        RandomGenerator rng = Rng.of(4, Purpose.BENCHMARK, 10);
        int[] hits = new int[4];
        for (int t = 0; t < 20000; t++) {
            hits[BbptClient.sampleCategorical(row, rng)]++;
        }
        assertEquals(0, hits[1]);
        assertEquals(0.1, hits[0] / 20000.0, 0.01);
        assertEquals(0.6, hits[2] / 20000.0, 0.015);
    }

    // ---- AdamW ----

    @Test
    void adamWMatchesTorchAdamWByHand() {
        // torch.optim.AdamW([theta], lr=0.1, weight_decay=0.1), defaults betas (0.9, 0.999), eps 1e-8.
        double[][] theta = {{0.5, 0.3, 0.2}};
        double[][] m = new double[1][3];
        double[][] v = new double[1][3];
        // Step 1, g = (1, -2, 0):
        //   theta *= 1 - 0.01            -> (0.495, 0.297, 0.198)
        //   m = 0.1 g = (0.1, -0.2, 0);   v = 0.001 g^2 = (0.001, 0.004, 0)
        //   step size 0.1 / (1 - 0.9) = 1; denom = sqrt(v) / sqrt(1 - 0.999) + 1e-8 = (1 + 1e-8, 2 + 1e-8, 1e-8)
        //   theta -= m / denom           -> (0.495 - 0.1/(1+1e-8), 0.297 + 0.2/(2+1e-8), 0.198)
        AdamW.step(theta, new double[][] {{1, -2, 0}}, m, v, 1, 0.1, 0.1);
        assertArrayEquals(new double[] {0.395000001, 0.3969999995, 0.198}, theta[0], 1e-15);
        assertArrayEquals(new double[] {0.1, -0.2, 0}, m[0], 1e-15);
        assertArrayEquals(new double[] {0.001, 0.004, 0}, v[0], 1e-15);
        // Step 2, g = (0.5, 0.5, 1):
        //   theta *= 0.99                -> (0.39105000099, 0.393029999505, 0.19602)
        //   m = 0.9 m + 0.1 g = (0.14, -0.13, 0.1);  v = 0.999 v + 0.001 g^2 = (0.001249, 0.004246, 0.001)
        //   step size 0.1 / (1 - 0.81) = 0.5263157894736842; denom = sqrt(v / 0.001999) + 1e-8
        //     = (0.7904513..., 1.4574160..., 0.7072836...)
        //   theta -= step size m / denom -> (0.29783203828816107, 0.4399768163036651, 0.12160631869540704)
        AdamW.step(theta, new double[][] {{0.5, 0.5, 1}}, m, v, 2, 0.1, 0.1);
        assertArrayEquals(new double[] {0.14, -0.13, 0.1}, m[0], 1e-15);
        assertArrayEquals(new double[] {0.001249, 0.004246, 0.001}, v[0], 1e-15);
        assertArrayEquals(new double[] {0.29783203828816107, 0.4399768163036651, 0.12160631869540704}, theta[0],
                1e-15);
    }
}
