package dev.fedbpt.engine.cmaes;

import org.apache.commons.math3.linear.Array2DRowRealMatrix;
import org.apache.commons.math3.linear.EigenDecomposition;

/**
 * C = B diag(D^2) B^T of a symmetric positive-definite matrix: {@code basis} holds the eigenvectors as columns,
 * {@code axisLengths} the square roots of the eigenvalues. A diagonal C is decomposed exactly, without the solver.
 * Immutable once built: searches that share one never write it.
 */
record Decomposition(double[][] basis, double[] axisLengths) {

    /** Eigenvalues and eigenvectors (as columns) of a symmetric matrix. */
    record Eigen(double[] values, double[][] vectors) {}

    /** The eigensystem of symmetric {@code c}: exact and O(n^2) for a diagonal one (B = I, e.g. every start C). */
    static Eigen eigen(double[][] c) {
        int n = c.length;
        if (isDiagonal(c)) {
            double[] ev = new double[n];
            double[][] vectors = new double[n][n];
            for (int i = 0; i < n; i++) {
                ev[i] = c[i][i];
                vectors[i][i] = 1.0;
            }
            return new Eigen(ev, vectors);
        }
        EigenDecomposition eig = new EigenDecomposition(new Array2DRowRealMatrix(c, false));
        return new Eigen(eig.getRealEigenvalues(), eig.getV().getData());
    }

    /** The decomposition of a positive-definite {@code c}; a breakdown otherwise. */
    static Decomposition of(double[][] c) {
        int n = c.length;
        Eigen raw = eigen(c);
        double[] ev = raw.values();
        double[][] vectors = raw.vectors();
        double[] d = new double[n];
        for (int i = 0; i < n; i++) {
            if (!(ev[i] > 0) || !Double.isFinite(ev[i])) {
                throw new IllegalStateException("CMA-ES numerical breakdown: covariance is not positive definite"
                        + " (eigenvalue " + ev[i] + ")");
            }
            d[i] = Math.sqrt(ev[i]);
        }
        return new Decomposition(vectors, d);
    }

    /** C^{-1/2} v = B diag(1/D) B^T v. */
    double[] inverseSqrt(double[] v) {
        int n = v.length;
        double[] t = new double[n];
        for (int j = 0; j < n; j++) {
            double s = 0;
            for (int i = 0; i < n; i++) {
                s += basis[i][j] * v[i];
            }
            t[j] = s / axisLengths[j];
        }
        double[] out = new double[n];
        for (int i = 0; i < n; i++) {
            double[] bi = basis[i];
            double s = 0;
            for (int j = 0; j < n; j++) {
                s += bi[j] * t[j];
            }
            out[i] = s;
        }
        return out;
    }

    static boolean isDiagonal(double[][] c) {
        for (int i = 0; i < c.length; i++) {
            for (int j = 0; j < c.length; j++) {
                if (i != j && c[i][j] != 0) {
                    return false;
                }
            }
        }
        return true;
    }
}
