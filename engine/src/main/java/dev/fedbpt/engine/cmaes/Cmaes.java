package dev.fedbpt.engine.cmaes;

import java.util.Arrays;
import java.util.Comparator;
import org.apache.commons.math3.random.RandomGenerator;

/**
 * Ask/tell CMA-ES for minimisation (Hansen 2016 tutorial: weighted recombination, CSA, rank-one + rank-mu update with
 * h_sigma, and the tutorial's default negative weights for the covariance when the parameters carry them). A pure
 * state machine: it never evaluates anything itself.
 *
 * <p>Eigendecomposition policy (Hansen's lazy update, tutorial 2016 / cmaes.m / purecma): B D^2 B^T = C is
 * recomputed, with symmetry enforced, only on the first use after construction and then whenever more than
 * {@code lambda / ((c1 + cmu) n 10)} evaluations, i.e. {@code 1 / ((c1 + cmu) n 10)} generations, have passed since
 * the last decomposition; in between, sampling and C^{-1/2} in the p_sigma update use the stale B, D. In low
 * dimension the gap is below one generation (decomposition every generation); at n = 500, lambda = 5 it is about
 * 19 generations, so the O(n^3) decomposition is rare. A diagonal C (e.g. every start state) is decomposed exactly in
 * O(n^2) without calling the eigensolver.
 *
 * <p>Restoring: B, D are not part of {@link CmaesState}. A Cmaes built from a state starts with a fresh
 * decomposition, so continuing from a restored state equals the original run when the original's decomposition was
 * fresh at that generation (always true at generation 0 of a restore chain, i.e. when the original was itself built
 * from that state). FedBPT restores only at such points (each client starts every round from the global state, the
 * server builds a new Cmaes from the state every round), so its runs stay bit-identical.
 *
 * <p>{@link #tell} accepts solutions this instance did not sample (FedBPT's server tells it the clients' means)
 * and any count >= 1: with a count other than lambda it uses {@link CmaesParameters#standard(int, int)} for that
 * count. Non-finite fitness values are treated as +infinity (worst).
 */
public final class Cmaes implements AskTell {
    /** Largest condition number of C tolerated before the diagonal is lifted (numerical breakdown guard). */
    private static final double MAX_CONDITION = 1e14;

    /** How candidates are drawn and how the worst ones shape C. */
    public enum Variant {
        /** Hansen's 2016 tutorial (pycma's defaults): independent candidates, capped negative weights. */
        TUTORIAL,
        /**
         * Mirrored sampling (Brockhoff, Auger, Hansen, Arnold, Hohm 2010: candidates 2p and 2p+1 are m +- sigma y_p;
         * an odd lambda's last one is unpaired) and the active covariance update of Hansen and Ros 2010 (cmaes.m
         * 3.x, Commons Math's CMAESOptimizer with active CMA). Fewer evaluations on every row of the benchmark.
         */
        MIRRORED_ACTIVE
    }

    private final CmaesParameters params;
    private final Variant variant;
    private final int n;
    private final double[] mean;
    private double sigma;
    private final double[][] c;
    private final double[] pathSigma;
    private final double[] pathC;
    private long generation;

    // Derived cache: B, D of C as it was at generation eigenGeneration (lazy update, see class comment).
    private Decomposition eigen;   // null until the first use
    private long eigenGeneration;
    private int decompositions;

    public Cmaes(CmaesState state, CmaesParameters params) {
        this(state, params, Variant.TUTORIAL);
    }

    public Cmaes(CmaesState state, CmaesParameters params, Variant variant) {
        if (state == null || params == null || variant == null) {
            throw new IllegalArgumentException("state, params and variant must not be null");
        }
        if (state.dimension() != params.dimension()) {
            throw new IllegalArgumentException("state dimension " + state.dimension()
                    + " != parameters dimension " + params.dimension());
        }
        CmaesState s = state.copy();
        this.params = params;
        this.variant = variant;
        this.n = s.dimension();
        this.mean = s.mean();
        this.sigma = s.sigma();
        this.c = s.covariance();
        this.pathSigma = s.pathSigma();
        this.pathC = s.pathC();
        this.generation = s.generation();
    }

    private Cmaes(Cmaes other, double sigma, CmaesParameters params) {
        this.params = params;
        this.variant = other.variant;
        this.n = other.n;
        this.mean = other.mean.clone();
        this.sigma = sigma;
        this.c = new double[n][];
        for (int i = 0; i < n; i++) {
            this.c[i] = other.c[i].clone();
        }
        this.pathSigma = other.pathSigma.clone();
        this.pathC = other.pathC.clone();
        this.generation = other.generation;
        // B and D are never written in place (a decomposition replaces them), so copies may share them.
        this.eigen = other.eigen;
        this.eigenGeneration = other.eigenGeneration;
    }

    /**
     * An independent copy, decomposition included, that behaves bit for bit as this instance would. Several searches
     * that start from the same state (FedBPT's clients, every round) decompose it once and copy it, instead of each
     * paying the O(n^3) eigendecomposition (about 0.45 s at n = 500).
     */
    @Override
    public Cmaes copy() {
        return new Cmaes(this, sigma, params);
    }

    /**
     * A copy with another step size and parameters that keeps the decomposition: B and D depend on C alone. FedBPT's
     * server decomposes the global covariance while the clients search ({@link #prepared}), then updates a copy with
     * its own sigma' and weights, bit for bit as if it had decomposed on the spot.
     */
    public Cmaes withSigmaAndParameters(double sigma, CmaesParameters params) {
        if (!(sigma > 0) || !Double.isFinite(sigma)) {
            throw new IllegalArgumentException("sigma must be finite and > 0, was " + sigma);
        }
        if (params == null || params.dimension() != n) {
            throw new IllegalArgumentException("parameters of dimension " + n + " needed");
        }
        return new Cmaes(this, sigma, params);
    }

    /** Computes the decomposition the first {@link #ask} would compute, now; returns this instance. */
    public Cmaes prepared() {
        ensureEigenForSampling();
        return this;
    }

    public CmaesParameters parameters() {
        return params;
    }

    public Variant variant() {
        return variant;
    }

    @Override
    public double sigma() {
        return sigma;
    }

    public long generation() {
        return generation;
    }

    /** A copy of the mean. */
    @Override
    public double[] mean() {
        return mean.clone();
    }

    /** A deep copy of the full state. */
    @Override
    public CmaesState state() {
        return new CmaesState(mean, sigma, c, pathSigma, pathC, generation).copy();
    }

    /**
     * Samples lambda candidates x_k = m + sigma B D z_k, z_k ~ N(0, I), drawing n Gaussians per candidate in order;
     * {@link Variant#MIRRORED_ACTIVE} draws them per pair and makes x_{2p+1} = m - sigma B D z_{2p}.
     */
    @Override
    public double[][] ask(RandomGenerator rng) {
        if (rng == null) {
            throw new IllegalArgumentException("rng must not be null");
        }
        ensureEigenForSampling();
        boolean mirrored = variant == Variant.MIRRORED_ACTIVE;
        double[][] out = new double[params.lambda()][n];
        double[] dz = new double[n];
        double[] step = new double[n];
        for (int k = 0; k < params.lambda(); k++) {
            double[] x = out[k];
            if (mirrored && k % 2 == 1) {
                for (int i = 0; i < n; i++) {
                    x[i] = mean[i] - sigma * step[i];
                }
                continue;
            }
            for (int i = 0; i < n; i++) {
                dz[i] = eigen.axisLengths()[i] * rng.nextGaussian();
            }
            for (int i = 0; i < n; i++) {
                double[] bi = eigen.basis()[i];
                double y = 0;
                for (int j = 0; j < n; j++) {
                    y += bi[j] * dz[j];
                }
                step[i] = y;
                x[i] = mean[i] + sigma * y;
            }
        }
        return out;
    }

    /** Updates the distribution from evaluated solutions (minimisation). */
    @Override
    public void tell(double[][] solutions, double[] fitness) {
        if (solutions == null || fitness == null) {
            throw new IllegalArgumentException("solutions and fitness must not be null");
        }
        if (solutions.length < 1) {
            throw new IllegalArgumentException("tell needs at least one solution");
        }
        if (solutions.length != fitness.length) {
            throw new IllegalArgumentException("got " + solutions.length + " solutions but " + fitness.length
                    + " fitness values");
        }
        for (int k = 0; k < solutions.length; k++) {
            if (solutions[k] == null || solutions[k].length != n) {
                throw new IllegalArgumentException("solution " + k + " must have length " + n);
            }
            for (double v : solutions[k]) {
                if (!Double.isFinite(v)) {
                    throw new IllegalArgumentException("solution " + k + " has a non-finite coordinate");
                }
            }
        }
        CmaesParameters p = solutions.length == params.lambda() ? params
                : CmaesParameters.standard(n, solutions.length);
        update(p, solutions, fitness);
    }

    private void update(CmaesParameters p, double[][] solutions, double[] fitness) {
        if (eigen == null) {
            decompose(); // tell before any ask (FedBPT's server): decomposition of the current C
        }
        // Otherwise C^{-1/2} uses the same (possibly stale) B, D that ask sampled with.
        Integer[] order = rank(fitness);
        double[] w = p.weights();
        int mu = p.mu();
        // Negative weights need a ranked solution for each; with fewer solutions the tail is simply unused.
        int used = Math.min(w.length, solutions.length);

        // y_i = (x_i:lambda - m) / sigma by rank (old mean, old sigma), and the weighted mean y_w of the mu best.
        double[][] y = new double[used][n];
        double[] yw = new double[n];
        for (int r = 0; r < used; r++) {
            double[] x = solutions[order[r]];
            double[] yr = y[r];
            for (int i = 0; i < n; i++) {
                yr[i] = (x[i] - mean[i]) / sigma;
            }
            if (r < mu) {
                for (int i = 0; i < n; i++) {
                    yw[i] += w[r] * yr[i];
                }
            }
        }
        for (int i = 0; i < n; i++) {
            mean[i] += sigma * yw[i];
        }

        // p_sigma <- (1 - cs) p_sigma + sqrt(cs (2 - cs) muEff) C^{-1/2} y_w
        double[] invSqrtYw = eigen.inverseSqrt(yw);
        double csFactor = Math.sqrt(p.cSigma() * (2 - p.cSigma()) * p.muEff());
        double psNormSq = 0;
        for (int i = 0; i < n; i++) {
            pathSigma[i] = (1 - p.cSigma()) * pathSigma[i] + csFactor * invSqrtYw[i];
            psNormSq += pathSigma[i] * pathSigma[i];
        }
        double psNorm = Math.sqrt(psNormSq);

        // h_sigma stalls p_c when ||p_sigma|| is large (e.g. just after a step-size increase).
        double correction = Math.sqrt(1 - Math.pow(1 - p.cSigma(), 2.0 * (generation + 1)));
        boolean hSigma = psNorm / correction < (1.4 + 2.0 / (n + 1)) * p.chiN();
        double ccFactor = hSigma ? Math.sqrt(p.cc() * (2 - p.cc()) * p.muEff()) : 0;
        for (int i = 0; i < n; i++) {
            pathC[i] = (1 - p.cc()) * pathC[i] + ccFactor * yw[i];
        }

        // Hansen & Ros's active update needs the mu worst of the ranked solutions; told fewer, the tutorial's applies.
        boolean hansenRos = variant == Variant.MIRRORED_ACTIVE && p.cMu() > 0 && used == solutions.length
                && solutions.length >= 2 * mu;
        // Rank-mu weights w°: negative ones are rescaled by n / ||C^{-1/2} y_i||^2 so that C stays positive definite.
        double[] wCirc = new double[used];
        double weightSum = 0;
        for (int r = 0; r < used; r++) {
            weightSum += w[r];
            if (w[r] >= 0) {
                wCirc[r] = w[r];
            } else if (hansenRos) {
                wCirc[r] = 0; // replaced below
            } else {
                double[] z = eigen.inverseSqrt(y[r]);
                double zz = 0;
                for (double v : z) {
                    zz += v * v;
                }
                wCirc[r] = zz > 0 ? w[r] * n / zz : 0;
            }
        }

        // C <- (1 + c1 delta(h) - c1 - cmu sum w_j) C + c1 pc pc^T + cmu sum w°_i y_i y_i^T, O(used n^2): the lower
        // triangle row by row, then mirrored (exact symmetry).
        double deltaH = hSigma ? 0 : p.cc() * (2 - p.cc());
        double keep = 1 + p.c1() * deltaH - p.c1() - p.cMu() * weightSum;
        double c1 = p.c1();
        double cMu = p.cMu();
        if (hansenRos) {
            ActiveTerms active = hansenRosActive(p, y, w, mu);
            y = active.vectors();
            wCirc = active.weights();
            used = y.length;
            keep = 1 + c1 * deltaH - c1 - cMu + 0.5 * active.negativeRate();
        }
        double[] coef = new double[used];
        for (int i = 0; i < n; i++) {
            double[] ci = c[i];
            double c1pi = c1 * pathC[i];
            for (int j = 0; j <= i; j++) {
                ci[j] = keep * ci[j] + c1pi * pathC[j];
            }
            if (cMu > 0) {
                for (int r = 0; r < used; r++) {
                    coef[r] = cMu * wCirc[r] * y[r][i];
                }
                for (int r = 0; r < used; r++) {
                    double a = coef[r];
                    if (a == 0) {
                        continue;
                    }
                    double[] yr = y[r];
                    for (int j = 0; j <= i; j++) {
                        ci[j] += a * yr[j];
                    }
                }
            }
        }
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < i; j++) {
                c[j][i] = c[i][j];
            }
        }

        // CSA after the C update (it uses the old sigma above); the exponent is capped at 1 (as pycma and Commons
        // Math do) so one wild step cannot explode sigma.
        double newSigma = sigma * Math.exp(Math.min(1.0, (p.cSigma() / p.dSigma()) * (psNorm / p.chiN() - 1)));
        if (!(newSigma > 0) || !Double.isFinite(newSigma)) {
            throw new IllegalStateException("CMA-ES numerical breakdown: sigma became " + newSigma);
        }
        sigma = newSigma;
        generation++;
    }

    /** The rank-mu terms of the active update: steps and their weights w° (cmu w° multiplies y y^T). */
    private record ActiveTerms(double[][] vectors, double[] weights, double negativeRate) {}

    /**
     * Hansen & Ros 2010, as in cmaes.m 3.x and Commons Math 3.6.1 {@code CMAESOptimizer.updateCovariance}:
     * C gets (cmu + negccov/2) sum_{i<=mu} w_i y_i y_i^T - negccov sum_k w_k y~_k y~_k^T over the mu worst steps
     * (the worst first), each rescaled so that the Mahalanobis norms are those of the worst reversed; negccov is
     * capped so that at least 0.66 of the variance in those directions remains. {@code y} is ranked best first.
     */
    private ActiveTerms hansenRosActive(CmaesParameters p, double[][] y, double[] w, int mu) {
        double cMu = p.cMu();
        double negativeRate = (1 - cMu) * 0.25 * p.muEff() / (Math.pow(n + 2, 1.5) + 2 * p.muEff());
        double[][] worst = new double[mu][];
        double[] norms = new double[mu];
        for (int k = 0; k < mu; k++) {
            worst[k] = y[y.length - 1 - k].clone();
            double zz = 0;
            for (double v : eigen.inverseSqrt(worst[k])) {
                zz += v * v;
            }
            norms[k] = Math.sqrt(zz);
        }
        Integer[] byNorm = rank(norms);
        double[] ratio = new double[mu];
        for (int j = 0; j < mu; j++) {
            int k = byNorm[j];
            ratio[k] = norms[k] > 0 ? norms[byNorm[mu - 1 - j]] / norms[k] : 0;
        }
        double spent = 0;
        for (int k = 0; k < mu; k++) {
            spent += ratio[k] * ratio[k] * w[k];
        }
        if (spent > 0) {
            negativeRate = Math.min(negativeRate, (1 - 0.66) / spent);
        }
        double[][] vectors = new double[2 * mu][];
        double[] weights = new double[2 * mu];
        for (int r = 0; r < mu; r++) {
            vectors[r] = y[r];
            weights[r] = w[r] * (1 + 0.5 * negativeRate / cMu);
        }
        for (int k = 0; k < mu; k++) {
            double[] scaled = worst[k];
            for (int i = 0; i < n; i++) {
                scaled[i] *= ratio[k];
            }
            vectors[mu + k] = scaled;
            weights[mu + k] = -w[k] * negativeRate / cMu;
        }
        return new ActiveTerms(vectors, weights, negativeRate);
    }

    /** Indices sorted by fitness ascending; non-finite counts as +infinity; ties keep input order. */
    private static Integer[] rank(double[] fitness) {
        Integer[] idx = new Integer[fitness.length];
        double[] f = new double[fitness.length];
        for (int i = 0; i < idx.length; i++) {
            idx[i] = i;
            f[i] = Double.isFinite(fitness[i]) ? fitness[i] : Double.POSITIVE_INFINITY;
        }
        Arrays.sort(idx, Comparator.comparingDouble((Integer i) -> f[i])); // stable merge sort
        return idx;
    }

    /**
     * Hansen's lazy update (tutorial 2016, cmaes.m / purecma): B, D are recomputed only when
     * {@code lambda / ((c1 + cmu) n 10)} evaluations, i.e. {@code 1 / ((c1 + cmu) n 10)} generations, have passed
     * since the last decomposition (always, in low dimension), and on the first use after construction.
     */
    private void ensureEigenForSampling() {
        if (eigen == null) {
            decompose();
            return;
        }
        if (generation == eigenGeneration) {
            return; // C unchanged since the decomposition
        }
        double rate = params.c1() + params.cMu();
        double gap = rate > 0 ? 1.0 / (rate * n * 10) : Double.POSITIVE_INFINITY;
        if (generation - eigenGeneration > gap) {
            decompose();
        }
    }

    /** Number of eigendecompositions this instance has computed (for tests of the lazy update). */
    int eigenDecompositions() {
        return decompositions;
    }

    private void decompose() {
        for (int attempt = 0; ; attempt++) {
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < i; j++) {
                    double v = 0.5 * (c[i][j] + c[j][i]);
                    c[i][j] = v;
                    c[j][i] = v;
                }
            }
            Decomposition.Eigen raw = Decomposition.eigen(c);
            double[] ev = raw.values();
            double max = Double.NEGATIVE_INFINITY;
            double min = Double.POSITIVE_INFINITY;
            for (double e : ev) {
                max = Math.max(max, e);
                min = Math.min(min, e);
            }
            if (!Double.isFinite(max) || !(max > 0)) {
                throw new IllegalStateException("CMA-ES numerical breakdown: covariance has no positive eigenvalue");
            }
            if (min <= 0 || max / min > MAX_CONDITION) {
                if (attempt >= 2) {
                    throw new IllegalStateException("CMA-ES numerical breakdown: covariance is not positive definite");
                }
                // Lift the diagonal so the condition number is at most MAX_CONDITION (Hansen's recipe).
                double lift = max / MAX_CONDITION - min;
                for (int i = 0; i < n; i++) {
                    c[i][i] += lift;
                }
                continue;
            }
            double[] axisLengths = new double[n];
            for (int i = 0; i < n; i++) {
                axisLengths[i] = Math.sqrt(ev[i]);
            }
            eigen = new Decomposition(raw.vectors(), axisLengths);
            eigenGeneration = generation;
            decompositions++;
            return;
        }
    }
}
