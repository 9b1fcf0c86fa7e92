package dev.fedbpt.engine.dlsec;

import dev.fedbpt.engine.method.Fp16;
import org.apache.commons.math3.linear.Array2DRowRealMatrix;
import org.apache.commons.math3.linear.ArrayRealVector;
import org.apache.commons.math3.linear.DecompositionSolver;
import org.apache.commons.math3.linear.LUDecomposition;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.IntStream;

/**
 * Algorithm 2 of the paper (Eq. 8-10): the residual R of one prompt position is approximated by Phi token
 * embeddings. Each pass of the schedule ([first-pass, Phi]) solves the LASSO
 * {@code min_x ||A^T x - R||^2 + alpha ||x||_1} over the remaining tokens (A's rows are their embeddings) and keeps
 * the tokens of the largest |x|; the kept Phi are refitted by least squares without the penalty.
 *
 * <p>The LASSO is solved as printed (unnormalised squares), by cyclic coordinate descent with soft-thresholding on an
 * active set: coordinates join it when they violate the optimality condition |<a_j, r>| <= alpha / 2 at the current
 * residual r (the strongest violators first), so a pass over 30,000 tokens costs a few matrix-vector products rather
 * than a sweep of every coordinate. alpha is absolute or a share of the weight that zeroes the pass
 * ({@link DlsEcConfig.AlphaScale}). With alpha = 0 a pass is the minimum-norm least-squares solution. When a pass
 * leaves fewer than the wanted nonzero coefficients, the rest are filled with the tokens most correlated with R (the
 * guard the spec recommends; {@link Result#screened} reports that it fired).
 */
final class ResidualCompression {
    /**
     * The result for one position: token ids, their coefficients rounded to fp16 as they travel, and whether the last
     * pass needed the guard.
     */
    record Result(int[] tokens, float[] coefficients, boolean screened) {}

    private static final int MAX_OUTER = 10_000;
    private static final int MAX_SWEEPS = 1_000;
    private static final double TOLERANCE = 1e-9;
    /** Coordinates that join the active set per check (the strongest violators). */
    private static final int JOIN_AT_ONCE = 64;
    private static final double RIDGE = 1e-8;

    private final VocabularyIndex index;
    private final int[] everyToken;
    /** The first pass's minimum-norm solver over every token (alpha = 0): one factorisation for every position. */
    private final Lazy<DecompositionSolver> minimumNorm;

    ResidualCompression(VocabularyIndex index) {
        this.index = index;
        everyToken = IntStream.range(0, index.size()).toArray();
        minimumNorm = new Lazy<>(() -> gramSolver(everyToken));
    }

    /** Compresses every row of {@code residuals} (positions are independent: computed in parallel, same bytes). */
    Result[] compressAll(double[][] residuals, int phi, double alpha, DlsEcConfig.AlphaScale scale, int firstPass) {
        return IntStream.range(0, residuals.length).parallel()
                .mapToObj(t -> compress(residuals[t], phi, alpha, scale, firstPass)).toArray(Result[]::new);
    }

    Result compress(double[] residual, int phi, double alpha, DlsEcConfig.AlphaScale scale, int firstPass) {
        int[] pool = everyToken;
        boolean screened = false;
        int[] schedule = firstPass > phi && firstPass < pool.length ? new int[] {firstPass, phi} : new int[] {phi};
        for (int pass = 0; pass < schedule.length; pass++) {
            double[] x = alpha > 0 ? lasso(pool, residual, weight(pool, residual, alpha, scale))
                    : leastSquares(pool, residual);
            Selection selection = largest(pool, x, residual, schedule[pass]);
            pool = selection.pool();
            // The first pass's LASSO usually has fewer nonzeros than it keeps (at alpha 0.2), and is filled as a rule;
            // what is reported is a final pass that could not name Phi tokens itself.
            screened = pass == schedule.length - 1 && selection.screened();
        }
        double[] refit = normalEquations(pool, residual);
        int[] tokens = new int[pool.length];
        float[] coefficients = new float[pool.length];
        for (int j = 0; j < pool.length; j++) {
            tokens[j] = index.allowed()[pool[j]];
            coefficients[j] = Fp16.round(refit[j]);
        }
        return new Result(tokens, coefficients, screened);
    }

    /**
     * The LASSO weight of one pass: {@code alpha} itself, or that share of 2 max_j |<a_j, R>| over {@code pool}, the
     * smallest weight at which every coefficient is zero.
     */
    double weight(int[] pool, double[] residual, double alpha, DlsEcConfig.AlphaScale scale) {
        if (scale == DlsEcConfig.AlphaScale.ABSOLUTE) {
            return alpha;
        }
        double largest = 0;
        for (int i : pool) {
            largest = Math.max(largest, Math.abs(index.dot(i, residual)));
        }
        return alpha * 2 * largest;
    }

    /** Coordinate descent on an active set, to the optimality conditions of every coordinate of {@code pool}. */
    double[] lasso(int[] pool, double[] target, double alpha) {
        int n = pool.length;
        double threshold = alpha / 2;
        double[] x = new double[n];
        double[] r = target.clone();
        boolean[] active = new boolean[n];
        List<Integer> members = new ArrayList<>();
        double[] correlation = new double[n];
        for (int outer = 0; outer < MAX_OUTER; outer++) {
            List<Integer> violators = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                if (!active[i]) {
                    correlation[i] = index.dot(pool[i], r);
                    if (Math.abs(correlation[i]) > threshold * (1 + 1e-12)) {
                        violators.add(i);
                    }
                }
            }
            if (violators.isEmpty()) {
                break;
            }
            violators.sort(Comparator.comparingDouble((Integer i) -> -Math.abs(correlation[i]))
                    .thenComparingInt(i -> i));
            for (int i : violators.subList(0, Math.min(JOIN_AT_ONCE, violators.size()))) {
                active[i] = true;
                members.add(i);
            }
            for (int sweep = 0; sweep < MAX_SWEEPS; sweep++) {
                double largestStep = 0;
                for (int i : members) {
                    double norm = index.squaredNorm(pool[i]);
                    if (norm == 0) {
                        continue;
                    }
                    double u = x[i] * norm + index.dot(pool[i], r);
                    double next = Math.signum(u) * Math.max(Math.abs(u) - threshold, 0) / norm;
                    double step = next - x[i];
                    if (step != 0) {
                        index.addScaled(pool[i], -step, r);
                        x[i] = next;
                        largestStep = Math.max(largestStep, Math.abs(step));
                    }
                }
                if (largestStep < TOLERANCE) {
                    break;
                }
            }
        }
        return x;
    }

    /** Least squares over {@code pool}: the minimum-norm solution when it has more tokens than dimensions. */
    double[] leastSquares(int[] pool, double[] target) {
        if (pool.length <= index.hidden()) {
            return normalEquations(pool, target);
        }
        // x = A w with (A^T A) w = R: the minimum-norm x with A^T x = R.
        DecompositionSolver solver = pool == everyToken ? minimumNorm.get() : gramSolver(pool);
        double[] w = solver.solve(new ArrayRealVector(target, false)).toArray();
        double[] x = new double[pool.length];
        for (int i = 0; i < pool.length; i++) {
            x[i] = index.dot(pool[i], w);
        }
        return x;
    }

    private DecompositionSolver gramSolver(int[] pool) {
        int d = index.hidden();
        double[][] gram = new double[d][d];
        float[] w = index.embeddings().weights();
        for (int i : pool) {
            int base = index.allowed()[i] * d;
            for (int a = 0; a < d; a++) {
                double wa = w[base + a];
                for (int b = a; b < d; b++) {
                    gram[a][b] += wa * w[base + b];
                }
            }
        }
        for (int a = 0; a < d; a++) {
            gram[a][a] += RIDGE;
            for (int b = 0; b < a; b++) {
                gram[a][b] = gram[b][a];
            }
        }
        return new LUDecomposition(new Array2DRowRealMatrix(gram, false)).getSolver();
    }

    /** Solves (A A^T + 1e-8 I) x = A R over {@code pool} (Eq. 10, with the spec's ridge for safety). */
    double[] normalEquations(int[] pool, double[] target) {
        int n = pool.length;
        double[][] gram = new double[n][n];
        double[] right = new double[n];
        float[] w = index.embeddings().weights();
        int d = index.hidden();
        for (int a = 0; a < n; a++) {
            int baseA = index.allowed()[pool[a]] * d;
            right[a] = index.dot(pool[a], target);
            for (int b = a; b < n; b++) {
                int baseB = index.allowed()[pool[b]] * d;
                double sum = 0;
                for (int j = 0; j < d; j++) {
                    sum += (double) w[baseA + j] * w[baseB + j];
                }
                gram[a][b] = sum;
                gram[b][a] = sum;
            }
            gram[a][a] += RIDGE;
        }
        return new LUDecomposition(new Array2DRowRealMatrix(gram, false)).getSolver()
                .solve(new ArrayRealVector(right, false)).toArray();
    }

    private record Selection(int[] pool, boolean screened) {}

    /**
     * The {@code keep} entries of {@code pool} with the largest |x| (Eq. 9; ties in pool order); when fewer are
     * nonzero, the rest by the largest |<a_j, R>|.
     */
    private Selection largest(int[] pool, double[] x, double[] target, int keep) {
        Integer[] order = new Integer[pool.length];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        Arrays.sort(order, Comparator.comparingDouble((Integer i) -> -Math.abs(x[i])).thenComparingInt(i -> i));
        int count = Math.min(keep, pool.length);
        int[] kept = new int[count];
        int filled = 0;
        while (filled < count && x[order[filled]] != 0) {
            kept[filled] = pool[order[filled]];
            filled++;
        }
        if (filled == count) {
            return new Selection(kept, false);
        }
        double[] correlation = new double[pool.length];
        for (int i = 0; i < pool.length; i++) {
            correlation[i] = x[i] != 0 ? Double.POSITIVE_INFINITY : Math.abs(index.dot(pool[i], target));
        }
        Arrays.sort(order, Comparator.comparingDouble((Integer i) -> -correlation[i]).thenComparingInt(i -> i));
        for (int k = filled; k < count; k++) {
            kept[k] = pool[order[k]];
        }
        return new Selection(kept, true);
    }
}
