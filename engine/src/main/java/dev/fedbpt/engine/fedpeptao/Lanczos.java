package dev.fedbpt.engine.fedpeptao;

import java.util.ArrayList;
import java.util.List;
import org.apache.commons.math3.linear.EigenDecomposition;
import org.apache.commons.math3.random.RandomGenerator;

/**
 * Stochastic Lanczos quadrature as PyHessian's {@code density(iter, n_v = 1)} runs it (FedPepTAO's my_pyhessian),
 * as an ask/tell state machine: {@link #pending()} is the vector whose Hessian product it needs next,
 * {@link #tell} takes the product. The start vector is Rademacher (±1) normalised; every new vector is
 * re-orthogonalised against all before it (modified Gram-Schmidt); vectors are normalised by norm + 1e-6, as
 * PyHessian's {@code normalization}. After {@code iterations} products the tridiagonal matrix's eigenvalues (Ritz
 * values) and their weights (squared first components of its eigenvectors) are {@link #eigenvalues()} and
 * {@link #weights()}.
 */
final class Lanczos {
    private final int iterations;
    private final RandomGenerator rng;
    private final List<double[]> basis = new ArrayList<>();
    private final double[] alphas;
    private final double[] betas;
    private double[] w;
    private int step;
    private double[] eigenvalues;
    private double[] weights;

    Lanczos(int dimension, int iterations, RandomGenerator rng) {
        if (dimension < 1 || iterations < 1) {
            throw new IllegalArgumentException("Lanczos needs a dimension and iterations >= 1");
        }
        this.iterations = iterations;
        this.rng = rng;
        this.alphas = new double[iterations];
        this.betas = new double[iterations - 1];
        double[] v = new double[dimension];
        for (int i = 0; i < dimension; i++) v[i] = rng.nextInt(2) == 0 ? -1 : 1;
        basis.add(normalised(v));
    }

    /** The vector v whose product H v is needed next, or null when done. */
    double[] pending() {
        return step < iterations ? basis.get(basis.size() - 1).clone() : null;
    }

    void tell(double[] hv) {
        if (step >= iterations) throw new IllegalStateException("Lanczos has finished");
        double[] v = basis.get(basis.size() - 1);
        if (hv.length != v.length) {
            throw new IllegalArgumentException("a product of " + hv.length + " values for " + v.length);
        }
        double alpha = dot(hv, v);
        alphas[step] = alpha;
        double[] next = hv.clone();
        for (int i = 0; i < next.length; i++) next[i] -= alpha * v[i];
        if (step > 0) {
            double beta = betas[step - 1];
            double[] before = basis.get(basis.size() - 2);
            for (int i = 0; i < next.length; i++) next[i] -= beta * before[i];
        }
        w = next;
        step++;
        if (step == iterations) {
            decompose();
            return;
        }
        double beta = Math.sqrt(dot(w, w));
        betas[step - 1] = beta;
        double[] direction = w;
        if (beta == 0) {
            direction = new double[w.length];
            for (int i = 0; i < direction.length; i++) direction[i] = rng.nextGaussian();
        }
        basis.add(orthonormal(direction));
    }

    boolean done() {
        return step == iterations;
    }

    double[] eigenvalues() {
        return eigenvalues.clone();
    }

    double[] weights() {
        return weights.clone();
    }

    private void decompose() {
        EigenDecomposition e = new EigenDecomposition(alphas, betas);
        eigenvalues = e.getRealEigenvalues();
        weights = new double[iterations];
        for (int k = 0; k < iterations; k++) {
            double first = e.getEigenvector(k).getEntry(0);
            weights[k] = first * first;
        }
    }

    /** {@code w} made orthogonal to every basis vector in turn, then normalised. */
    private double[] orthonormal(double[] w) {
        double[] out = w.clone();
        for (double[] v : basis) {
            double c = dot(out, v);
            for (int i = 0; i < out.length; i++) out[i] -= c * v[i];
        }
        return normalised(out);
    }

    private static double[] normalised(double[] v) {
        double s = Math.sqrt(dot(v, v)) + 1e-6;
        double[] out = new double[v.length];
        for (int i = 0; i < v.length; i++) out[i] = v[i] / s;
        return out;
    }

    static double dot(double[] a, double[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) s += a[i] * b[i];
        return s;
    }
}
