package dev.fedbpt.engine.cmaes;

import java.util.Arrays;

/**
 * Complete, serialisable state of a CMA-ES search distribution N(mean, sigma^2 C) plus its evolution paths.
 * Arrays are not defensively copied (states of d = 500 are large); use {@link #copy()} before sharing.
 * Equality is bitwise on every double, which is what reproducibility checks need.
 *
 * <p>The eigendecomposition of C is not part of the state (it is updated lazily, see {@link Cmaes}): a Cmaes built
 * from a state starts with a fresh decomposition, so continuing from a restored state equals the original run when
 * the original's decomposition was fresh at that generation (always true at generation 0 of a restore chain).
 * {@link Pycma}, whose eigendecomposition is part of the search across rounds (FedBPT's reference-code server keeps
 * one pycma instance for the whole run), records it here: {@code decomposed} is the covariance as it was when last
 * decomposed and {@code tellsSinceDecomposition} the tells since; null and 0 for every other search (and in journals
 * written before the fields existed).
 */
public record CmaesState(double[] mean, double sigma, double[][] covariance, double[] pathSigma, double[] pathC,
                         long generation, double[][] decomposed, int tellsSinceDecomposition) {

    public CmaesState(double[] mean, double sigma, double[][] covariance, double[] pathSigma, double[] pathC,
                      long generation) {
        this(mean, sigma, covariance, pathSigma, pathC, generation, null, 0);
    }

    public CmaesState {
        if (mean == null || mean.length == 0) {
            throw new IllegalArgumentException("mean must be a non-empty vector");
        }
        int n = mean.length;
        if (!(sigma > 0) || !Double.isFinite(sigma)) {
            throw new IllegalArgumentException("sigma must be finite and > 0, was " + sigma);
        }
        if (covariance == null || covariance.length != n) {
            throw new IllegalArgumentException("covariance must be " + n + "x" + n);
        }
        for (double[] row : covariance) {
            if (row == null || row.length != n) {
                throw new IllegalArgumentException("covariance must be " + n + "x" + n);
            }
        }
        if (pathSigma == null || pathSigma.length != n) {
            throw new IllegalArgumentException("pathSigma must have length " + n);
        }
        if (pathC == null || pathC.length != n) {
            throw new IllegalArgumentException("pathC must have length " + n);
        }
        if (generation < 0) {
            throw new IllegalArgumentException("generation must be >= 0, was " + generation);
        }
        if (decomposed != null && decomposed.length != n) {
            throw new IllegalArgumentException("decomposed must be " + n + "x" + n);
        }
        if (tellsSinceDecomposition < 0) {
            throw new IllegalArgumentException("tellsSinceDecomposition must be >= 0, was " + tellsSinceDecomposition);
        }
    }

    /**
     * The state a reference-code client starts from (pycma's {@code _copy_light}): this mean, sigma and covariance,
     * zero evolution paths, iteration counter 0, and no recorded decomposition (the client decomposes C afresh).
     */
    public CmaesState lightCopy() {
        return new CmaesState(mean, sigma, covariance, new double[mean.length], new double[mean.length], 0);
    }

    /** Start state: C = I, zero evolution paths, generation 0. */
    public static CmaesState initial(double[] mean, double sigma) {
        if (mean == null || mean.length == 0) {
            throw new IllegalArgumentException("mean must be a non-empty vector");
        }
        int n = mean.length;
        double[][] c = new double[n][n];
        for (int i = 0; i < n; i++) {
            c[i][i] = 1.0;
        }
        return new CmaesState(mean.clone(), sigma, c, new double[n], new double[n], 0);
    }

    public int dimension() {
        return mean.length;
    }

    /** Deep copy. */
    public CmaesState copy() {
        double[][] c = new double[covariance.length][];
        for (int i = 0; i < c.length; i++) {
            c[i] = covariance[i].clone();
        }
        double[][] e = null;
        if (decomposed != null) {
            e = new double[decomposed.length][];
            for (int i = 0; i < e.length; i++) {
                e[i] = decomposed[i].clone();
            }
        }
        return new CmaesState(mean.clone(), sigma, c, pathSigma.clone(), pathC.clone(), generation, e,
                tellsSinceDecomposition);
    }

    /** The same state with another step size (FedBPT's server swaps in its corrected sigma'). */
    public CmaesState withSigma(double newSigma) {
        return new CmaesState(mean, newSigma, covariance, pathSigma, pathC, generation, decomposed,
                tellsSinceDecomposition);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CmaesState s
                && Double.compare(sigma, s.sigma) == 0
                && generation == s.generation
                && Arrays.equals(mean, s.mean)
                && Arrays.deepEquals(covariance, s.covariance)
                && Arrays.equals(pathSigma, s.pathSigma)
                && Arrays.equals(pathC, s.pathC)
                && Arrays.deepEquals(decomposed, s.decomposed)
                && tellsSinceDecomposition == s.tellsSinceDecomposition;
    }

    @Override
    public int hashCode() {
        int h = Arrays.hashCode(mean);
        h = 31 * h + Double.hashCode(sigma);
        h = 31 * h + Arrays.deepHashCode(covariance);
        h = 31 * h + Arrays.hashCode(pathSigma);
        h = 31 * h + Arrays.hashCode(pathC);
        return 31 * h + Long.hashCode(generation);
    }

    @Override
    public String toString() {
        return "CmaesState[n=" + mean.length + ", sigma=" + sigma + ", generation=" + generation + "]";
    }
}
