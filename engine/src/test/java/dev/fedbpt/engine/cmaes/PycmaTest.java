package dev.fedbpt.engine.cmaes;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fedbpt.engine.random.Purpose;
import dev.fedbpt.engine.random.Rng;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * {@link Pycma} over whole runs, beyond the eight recorded generations of {@code PycmaFixturesTest}: it optimises
 * (with and without selective mirrors, through many lazy decompositions), is deterministic, and copies exactly.
 */
class PycmaTest {
    private static double sphere(double[] x) {
        return Arrays.stream(x).map(v -> v * v).sum();
    }

    private static double ellipsoid(double[] x) {
        double s = 0;
        for (int i = 0; i < x.length; i++) {
            s += Math.pow(1e6, i / (x.length - 1.0)) * x[i] * x[i];
        }
        return s;
    }

    /** Evaluations until f < 1e-8, or -1 after maxEvals. */
    private static int evaluationsToTarget(int dim, int popsize, java.util.function.ToDoubleFunction<double[]> f,
                                           long seed, int maxEvals) {
        double[] start = new double[dim];
        Arrays.fill(start, 1.0);
        Pycma es = Pycma.fresh(Pycma.initialState(start, 1.0), PycmaParameters.of(dim, popsize, 0, true));
        int evals = 0;
        for (int g = 0; evals < maxEvals; g++) {
            double[][] x = es.ask(Rng.of(seed, Purpose.BENCHMARK, g));
            double[] fx = new double[x.length];
            for (int k = 0; k < x.length; k++) {
                fx[k] = f.applyAsDouble(x[k]);
                evals++;
                if (fx[k] < 1e-8) {
                    return evals;
                }
            }
            es.tell(x, fx);
        }
        return -1;
    }

    @Test
    void reachesTheTargetWithAndWithoutSelectiveMirrors() {
        int mirrored = evaluationsToTarget(10, 5, PycmaTest::sphere, 1, 20_000);
        int plain = evaluationsToTarget(10, 10, PycmaTest::sphere, 1, 20_000);
        int elli = evaluationsToTarget(10, 10, PycmaTest::ellipsoid, 1, 50_000);
        assertTrue(mirrored > 0 && mirrored < 3000, "sphere-10 at popsize 5 (one mirror): " + mirrored);
        assertTrue(plain > 0 && plain < 3000, "sphere-10 at popsize 10: " + plain);
        assertTrue(elli > 0 && elli < 15_000, "ellipsoid-10 (condition 1e6): " + elli);
    }

    @Test
    void theSameDrawsGiveTheSameBitsAndACopyContinuesAlike() {
        double[] start = {0.3, -0.2, 1.0, 0.5};
        Pycma a = Pycma.fresh(Pycma.initialState(start, 0.5), PycmaParameters.client(4, 5));
        Pycma b = Pycma.fresh(Pycma.initialState(start, 0.5), PycmaParameters.client(4, 5));
        for (int g = 0; g < 6; g++) {
            double[][] xa = a.ask(Rng.of(9, Purpose.BENCHMARK, g));
            double[][] xb = b.ask(Rng.of(9, Purpose.BENCHMARK, g));
            assertArrayEquals(xa, xb);
            double[] f = Arrays.stream(xa).mapToDouble(PycmaTest::sphere).toArray();
            a.tell(xa, f);
            b.tell(xb, f);
        }
        assertEquals(a.state(), b.state());
        Pycma c = a.copy();
        double[][] xa = a.ask(Rng.of(9, Purpose.BENCHMARK, 99));
        double[][] xc = c.ask(Rng.of(9, Purpose.BENCHMARK, 99));
        assertArrayEquals(xa, xc, "the copy has the pending mirror and the decomposition too");
    }

    @Test
    void aSolutionTheSearchDidNotSampleIsShortenedButAnAskedOneIsNot() {
        Pycma es = Pycma.fresh(CmaesState.initial(new double[4], 1.0), PycmaParameters.client(4, 5));
        double[][] asked = es.ask(Rng.of(3, Purpose.BENCHMARK, 0));
        double[][] told = new double[5][];
        for (int k = 0; k < 5; k++) {
            told[k] = asked[k].clone();
        }
        told[4] = new double[] {100, 0, 0, 0}; // far outside the distribution, not from ask
        es.tell(told, new double[] {1, 2, 3, 4, 5});
        double[] divisors = es.lastTrace().shorteningDivisors();
        for (int k = 0; k < 4; k++) {
            assertEquals(1.0, divisors[k], "asked solution " + k);
        }
        // sqrt(N) + 2N/(N+2) = 2 + 8/6 at N = 4: 100 is shortened by 100 / 3.333...
        assertEquals(100 / (2 + 8.0 / 6), divisors[4], 1e-12);
    }
}
