package dev.fedbpt.engine.cmaes;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fedbpt.engine.random.Purpose;
import dev.fedbpt.engine.random.Rng;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class CmaesTest {

    private static double sphere(double[] x) {
        return Objectives.sphere(x);
    }

    private static void generation(Cmaes es, int g) {
        double[][] xs = es.ask(Rng.of(1, Purpose.PROBE, g));
        double[] f = new double[xs.length];
        for (int k = 0; k < xs.length; k++) {
            f[k] = Objectives.ellipsoid(xs[k]);
        }
        es.tell(xs, f);
    }

    private static CmaesState advance(CmaesState s, CmaesParameters p, int from, int to) {
        Cmaes es = new Cmaes(s, p);
        for (int g = from; g < to; g++) {
            generation(es, g);
        }
        return es.state();
    }

    @Test
    void restoredInstanceContinuesBitIdentically() {
        // n = 100, lambda = 5: the lazy gap 1/((c1+cmu) n 10) is about 4 generations, so the stale-basis path is
        // exercised. Restoring is exact when the original's decomposition was fresh at the restore point, which holds
        // when the original is itself built from that state (generation 0 of a restore chain).
        int n = 100;
        double[] x0 = new double[n];
        Arrays.fill(x0, 2.0);
        CmaesParameters p = CmaesParameters.standard(n, 5);
        // A non-trivial (non-diagonal) state at generation 13, as a round's global state would be.
        CmaesState atG = advance(CmaesState.initial(x0, 0.7), p, 0, 13);
        Cmaes original = new Cmaes(atG, p);
        Cmaes restored = new Cmaes(atG.copy(), p);
        assertEquals(original.state(), restored.state());
        for (int g = 13; g < 40; g++) {
            generation(original, g);
            generation(restored, g);
            assertEquals(original.state(), restored.state(), "diverged at generation " + g);
        }
        assertTrue(original.eigenDecompositions() < 27, "lazy update: " + original.eigenDecompositions());
        // A chain of restores at the same points (FedBPT's rounds) reproduces itself bit for bit.
        CmaesState a = advance(advance(atG, p, 13, 21), p, 21, 29);
        CmaesState b = advance(advance(atG.copy(), p, 13, 21), p, 21, 29);
        assertEquals(a, b);
    }

    @Test
    void eigendecompositionIsLazyInHighDimensionOnly() {
        int n = 100;
        CmaesParameters p = CmaesParameters.standard(n, 5);
        double gap = 1.0 / ((p.c1() + p.cMu()) * n * 10);
        assertTrue(gap > 3 && gap < 5, "gap " + gap);
        Cmaes es = new Cmaes(advance(CmaesState.initial(new double[n], 1.0), p, 0, 3), p);
        for (int g = 0; g < 40; g++) {
            generation(es, g);
        }
        // first use + every floor(gap) + 1 generations
        int expected = 1 + 40 / ((int) Math.floor(gap) + 1);
        assertTrue(Math.abs(es.eigenDecompositions() - expected) <= 1, es.eigenDecompositions() + " vs " + expected);
        // n = 6: gap < 1, a fresh decomposition every generation.
        CmaesParameters small = CmaesParameters.standard(6, CmaesParameters.defaultLambda(6));
        Cmaes lowDim = new Cmaes(advance(CmaesState.initial(new double[] {1, 1, 1, 1, 1, 1}, 1), small, 0, 3), small);
        for (int g = 0; g < 10; g++) {
            generation(lowDim, g);
        }
        assertEquals(10, lowDim.eigenDecompositions());
    }

    /** Micro-benchmark of the real use (FedBPT: z in R^500, lambda = 5, a client's local iterations). */
    @Test
    void askTellTimingAtDimension500() {
        int n = 500;
        CmaesParameters p = CmaesParameters.standard(n, 5);
        CmaesState restoredState = advance(CmaesState.initial(new double[n], 1.0), p, 0, 3); // non-diagonal C
        for (int rep = 0; rep < 2; rep++) {
            long t0 = System.nanoTime();
            Cmaes fromIdentity = new Cmaes(CmaesState.initial(new double[n], 1.0), p);
            for (int g = 0; g < 16; g++) {
                generation(fromIdentity, g);
            }
            long t1 = System.nanoTime();
            Cmaes fromRestored = new Cmaes(restoredState, p);
            for (int g = 0; g < 16; g++) {
                generation(fromRestored, g);
            }
            long t2 = System.nanoTime();
            System.out.printf("CMA-ES ask+tell n=500 lambda=5, 16 generations: from C=I %.0f ms (%d decompositions), "
                    + "from a restored non-diagonal C %.0f ms (%d decompositions)%n", (t1 - t0) / 1e6,
                    fromIdentity.eigenDecompositions(), (t2 - t1) / 1e6, fromRestored.eigenDecompositions());
        }
    }

    @Test
    void stateIsACopy() {
        Cmaes es = new Cmaes(CmaesState.initial(new double[] {1, 2}, 1), CmaesParameters.standard(2, 6));
        CmaesState s = es.state();
        s.mean()[0] = 99;
        s.covariance()[0][0] = 99;
        assertEquals(1.0, es.state().mean()[0]);
        assertEquals(1.0, es.state().covariance()[0][0]);
        assertEquals(s, s.copy());
        assertEquals(s.hashCode(), s.copy().hashCode());
    }

    @Test
    void solvesSphere() {
        int n = 10;
        double[] x0 = new double[n];
        Arrays.fill(x0, 3.0);
        Cmaes es = new Cmaes(CmaesState.initial(x0, 1.0), CmaesParameters.standard(n, 10));
        var rng = Rng.of(5, Purpose.PROBE);
        for (int g = 0; g < 400; g++) {
            double[][] xs = es.ask(rng);
            double[] f = Arrays.stream(xs).mapToDouble(CmaesTest::sphere).toArray();
            es.tell(xs, f);
        }
        assertTrue(sphere(es.mean()) < 1e-10, "f(mean) = " + sphere(es.mean()));
    }

    @Test
    void nonFiniteFitnessIsWorst() {
        // Two clones fed the same solutions: one sees NaN, the other +inf on the same candidate -> same state.
        Cmaes a = new Cmaes(CmaesState.initial(new double[] {1, 1, 1}, 1), CmaesParameters.standard(3, 6));
        Cmaes b = new Cmaes(a.state(), a.parameters());
        double[][] xs = a.ask(Rng.of(1, Purpose.PROBE));
        double[] fa = Arrays.stream(xs).mapToDouble(CmaesTest::sphere).toArray();
        double[] fb = fa.clone();
        fa[0] = Double.NaN;
        fb[0] = Double.POSITIVE_INFINITY;
        a.tell(xs, fa);
        b.tell(xs, fb);
        assertEquals(a.state(), b.state());
    }

    @Test
    void tellAcceptsForeignSolutionsOfAnyCount() {
        Cmaes es = new Cmaes(CmaesState.initial(new double[] {0, 0}, 1), CmaesParameters.standard(2, 6));
        es.tell(new double[][] {{1, 0}, {0, 1}, {5, 5}}, new double[] {1, 2, 3});
        // count 3 -> standard(2, 3): mu = 1, the best solution becomes the mean
        assertArrayEquals(new double[] {1, 0}, es.mean(), 1e-15);
        assertEquals(1, es.generation());
        es.tell(new double[][] {{0.5, 0.5}}, new double[] {0});
        assertArrayEquals(new double[] {0.5, 0.5}, es.mean(), 1e-15);
    }

    @Test
    void rejectsBadInput() {
        Cmaes es = new Cmaes(CmaesState.initial(new double[] {0, 0}, 1), CmaesParameters.standard(2, 6));
        assertThrows(IllegalArgumentException.class, () -> es.tell(new double[0][], new double[0]));
        assertThrows(IllegalArgumentException.class, () -> es.tell(new double[][] {{1, 2}}, new double[] {1, 2}));
        assertThrows(IllegalArgumentException.class, () -> es.tell(new double[][] {{1, 2, 3}}, new double[] {1}));
        assertThrows(IllegalArgumentException.class,
                () -> new Cmaes(CmaesState.initial(new double[] {0, 0}, 1), CmaesParameters.standard(3, 6)));
        assertThrows(IllegalArgumentException.class, () -> CmaesState.initial(new double[] {0}, 0));
    }

    @Test
    void standardParametersFollowTheTutorial() {
        CmaesParameters p = CmaesParameters.standard(10, 10);
        assertEquals(10, CmaesParameters.defaultLambda(10));
        assertEquals(5, p.mu());
        double sum = 0;
        for (int i = 0; i < p.mu(); i++) {
            sum += p.weights()[i];
        }
        assertEquals(1.0, sum, 1e-12);
        // w_1 / w_2 = (ln 5.5 - ln 1) / (ln 5.5 - ln 2)
        assertEquals(Math.log(5.5) / (Math.log(5.5) - Math.log(2)), p.weights()[0] / p.weights()[1], 1e-12);
        assertTrue(p.weights()[9] < 0, "active CMA: worst rank has a negative weight");
        assertEquals(Math.sqrt(10) * (1 - 1 / 40.0 + 1 / 2100.0), p.chiN(), 1e-12);
        assertNotEquals(p, CmaesParameters.standard(10, 12));
    }

    @Test
    void aCopyOfAPreparedInstanceBehavesBitForBitLikeAFreshOneFromTheSameState() {
        int n = 12;
        Cmaes evolved = new Cmaes(CmaesState.initial(new double[n], 0.8), CmaesParameters.standard(n, 6));
        for (int g = 0; g < 5; g++) { // a non-diagonal covariance, as FedBPT's global state has after round 1
            double[][] xs = evolved.ask(Rng.of(3, Purpose.PROBE, g));
            evolved.tell(xs, Arrays.stream(xs).mapToDouble(x -> x[0] * x[0] + 3 * x[1] * x[1]).toArray());
        }
        CmaesState start = evolved.state();
        Cmaes prepared = new Cmaes(start, CmaesParameters.standard(n, 6)).prepared();
        Cmaes copy = prepared.copy();
        Cmaes fresh = new Cmaes(start, CmaesParameters.standard(n, 6));
        for (int g = 0; g < 4; g++) {
            double[][] a = copy.ask(Rng.of(9, Purpose.PROBE, g));
            double[][] b = fresh.ask(Rng.of(9, Purpose.PROBE, g));
            assertTrue(Arrays.deepEquals(a, b), "generation " + g);
            double[] f = Arrays.stream(a).mapToDouble(x -> Math.abs(x[2])).toArray();
            copy.tell(a, f);
            fresh.tell(b, f);
        }
        assertEquals(fresh.state(), copy.state());
        assertEquals(start, prepared.state(), "copies never write into the instance they came from");
    }

    @Test
    void mirroredSamplingPairsEachCandidateWithItsMirrorImage() {
        double[] mean = {0.5, -1.0, 2.0};
        CmaesState start = CmaesState.initial(mean, 0.7);
        Cmaes es = new Cmaes(start, CmaesParameters.standard(3, 5), Cmaes.Variant.MIRRORED_ACTIVE);
        double[][] xs = es.ask(Rng.of(3, Purpose.BENCHMARK, 0));
        for (int p = 0; p + 1 < xs.length; p += 2) {
            for (int i = 0; i < mean.length; i++) {
                assertEquals(2 * mean[i], xs[p][i] + xs[p + 1][i], 1e-12, "pair " + p + " is symmetric about m");
            }
        }
        assertNotEquals(xs[0][0], xs[2][0], "each pair has its own direction");
        double[][] again = new Cmaes(start, CmaesParameters.standard(3, 5), Cmaes.Variant.MIRRORED_ACTIVE)
                .ask(Rng.of(3, Purpose.BENCHMARK, 0));
        assertTrue(Arrays.deepEquals(xs, again), "same seed, same candidates");
    }

    @Test
    void theActiveUpdateKeepsTheCovarianceSymmetricAndPositive() {
        Cmaes es = new Cmaes(CmaesState.initial(new double[4], 1.0), CmaesParameters.standard(4, 8),
                Cmaes.Variant.MIRRORED_ACTIVE);
        var rng = Rng.of(5, Purpose.BENCHMARK, 1);
        for (int g = 0; g < 30; g++) {
            double[][] xs = es.ask(rng);
            double[] fs = new double[xs.length];
            for (int k = 0; k < xs.length; k++) {
                fs[k] = Objectives.ellipsoid(xs[k]);
            }
            es.tell(xs, fs);
        }
        double[][] c = es.state().covariance();
        for (int i = 0; i < c.length; i++) {
            assertTrue(c[i][i] > 0, "variance " + i + " stays positive");
            for (int j = 0; j < i; j++) {
                assertEquals(c[i][j], c[j][i], "symmetric");
            }
        }
        assertTrue(es.state().copy().equals(es.copy().state()), "copies keep the variant's state");
    }
}
