package dev.fedbpt.engine.cmaes;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.apache.commons.math3.random.RandomGenerator;

/**
 * pycma 3.4.0's {@code CMAEvolutionStrategy} with default options, as FedBPT's reference code drives it, as an
 * ask/tell state machine. Line numbers are pycma's at tag r3.4.0 ({@code ../shared/reference/pycma-fixtures/README.md}
 * lists each behaviour and what leaving it out costs); {@code PycmaFixturesTest} replays pycma's own recorded runs.
 *
 * <ul>
 *   <li>NaN fitness becomes the median of the others (evolution_strategy.py:2766-2775).</li>
 *   <li>Told solutions that {@link #ask} did not return are shortened to a Mahalanobis length of at most
 *   sqrt(N) + 2N/(N+2) (repair_genotype, :3382-3410); FedBPT's server tells only such solutions.</li>
 *   <li>The sigma path uses C^{-1/2} of the covariance as last decomposed; h_sigma is pycma's test
 *   sum(p_s^2) / (1 - (1-c_s)^(2t)) / N - 1 < 1 + 4/(N+1) (sigma_adaptation.py:81-84).</li>
 *   <li>Covariance: C *= 1 - c1a - sum(c_mu w_i); negative weights rescaled by N / (||C^{-1/2} y|| + 1e-9)^2; a
 *   selective mirror at a negative weight gets weight 0 (CMA_active_injected = 0); the rank-one term carries c1
 *   even when h_sigma is 0 (evolution_strategy.py:3009-3108, sampler.py:335-347).</li>
 *   <li>Step size with pycma's chiN and d_sigma ({@link PycmaParameters}), the exponent clipped to [-1, 1].</li>
 *   <li>Lazy eigendecomposition: B and D are recomputed at an ask (or a Mahalanobis norm) only once
 *   {@link PycmaParameters#lazyGap()} tells have passed since the last one (sampler.py:363-366).</li>
 *   <li>Selective mirroring with delay for popsize < 6 (CMA_mirrormethod 2): each ask's first candidate mirrors
 *   the previous generation's worst through its old mean, rescaled to a random chi_N length when its Mahalanobis
 *   length exceeds sqrt(N) (:2243-2263, :2610-2643); a mirror is never mirrored itself.</li>
 * </ul>
 * Random draws (the mirror's length, the candidates) come from the caller's generator, not numpy's: given the same
 * candidates and fitness, the update equals pycma's to about 1e-15.
 */
public final class Pycma implements AskTell {
    private final PycmaParameters params;
    private final int n;
    private final double[] mean;
    private double sigma;
    private final double[][] c;
    private final double[] pathSigma;
    private final double[] pathC;
    private long countiter;

    // The sampler's decomposition: B, D of the covariance `decomposedC` as it was `tellsSinceDecomposition` tells ago.
    private Decomposition eigen;
    private double[][] decomposedC;
    private int tellsSinceDecomposition;

    // Bookkeeping between an ask and its tell.
    private double[][] lastAsked = new double[0][];
    private int lastMirrorIndex = -1;
    private double[] mirrorDirection; // y = m_old - x_worst of the last tell, or null

    private Pycma(CmaesState s, PycmaParameters params, Decomposition eigen, double[][] decomposedC, int since) {
        if (s.dimension() != params.dimension()) {
            throw new IllegalArgumentException("state dimension " + s.dimension() + " != parameters dimension "
                    + params.dimension());
        }
        this.params = params;
        this.n = s.dimension();
        this.mean = s.mean();
        this.sigma = s.sigma();
        this.c = s.covariance();
        this.pathSigma = s.pathSigma();
        this.pathC = s.pathC();
        this.countiter = s.generation();
        this.eigen = eigen;
        this.decomposedC = decomposedC;
        this.tellsSinceDecomposition = since;
    }

    /**
     * A search that decomposes the state's covariance now (a client's light copy, or any fresh start); the
     * state's recorded decomposition, if any, is ignored.
     */
    public static Pycma fresh(CmaesState state, PycmaParameters params) {
        CmaesState s = state.copy();
        return new Pycma(s, params, Decomposition.of(s.covariance()), copyOf(s.covariance()), 0);
    }

    /**
     * A search that continues the state's recorded decomposition ({@link CmaesState#decomposed()}), as one pycma
     * instance kept alive across FedBPT rounds does; a state without one is decomposed now.
     */
    public static Pycma resumed(CmaesState state, PycmaParameters params) {
        // When a refresh is due, the next ask (or Mahalanobis norm) decomposes the current C anyway: decomposing the
        // recorded one first would be thrown away. C is kept exactly symmetric, so fresh() decomposes the same bits.
        if (state.decomposed() == null || params.decompositionDue(state.tellsSinceDecomposition())) {
            return fresh(state, params);
        }
        CmaesState s = state.copy();
        return new Pycma(s, params, Decomposition.of(s.decomposed()), s.decomposed(), s.tellsSinceDecomposition());
    }

    /** pycma's initial covariance, diag(exp(1e-4 i / N)) (sampler.py:234-236), decomposed at tell count 0. */
    public static CmaesState initialState(double[] mean, double sigma) {
        int n = mean.length;
        double[][] c = new double[n][n];
        for (int i = 0; i < n; i++) {
            c[i][i] = Math.exp((1e-4 / n) * i);
        }
        return new CmaesState(mean.clone(), sigma, c, new double[n], new double[n], 0, copyOf(c), 0);
    }

    @Override
    public Pycma copy() {
        Pycma out = new Pycma(state(), params, eigen, decomposedC, tellsSinceDecomposition);
        out.lastAsked = lastAsked;
        out.lastMirrorIndex = lastMirrorIndex;
        out.mirrorDirection = mirrorDirection == null ? null : mirrorDirection.clone();
        return out;
    }

    /** The same search with another step size (the reference code's server sets sigma to its global sigma). */
    public Pycma withSigma(double newSigma) {
        if (!(newSigma > 0) || !Double.isFinite(newSigma)) {
            throw new IllegalArgumentException("sigma must be finite and > 0, was " + newSigma);
        }
        Pycma out = copy();
        out.sigma = newSigma;
        return out;
    }

    public PycmaParameters parameters() {
        return params;
    }

    @Override
    public double sigma() {
        return sigma;
    }

    @Override
    public double[] mean() {
        return mean.clone();
    }

    public long countiter() {
        return countiter;
    }

    @Override
    public CmaesState state() {
        return new CmaesState(mean, sigma, c, pathSigma, pathC, countiter, decomposedC, tellsSinceDecomposition)
                .copy();
    }

    /** The update pycma's ask runs before it samples: a new decomposition if the lazy gap has passed. */
    public void updateDecompositionIfDue() {
        if (!params.decompositionDue(tellsSinceDecomposition)) {
            return;
        }
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < i; j++) { // sampler.py:400: C is made symmetric
                double v = (c[i][j] + c[j][i]) / 2;
                c[i][j] = v;
                c[j][i] = v;
            }
        }
        eigen = Decomposition.of(c);
        decomposedC = copyOf(c);
        tellsSinceDecomposition = 0;
    }

    /**
     * lambda candidates: the pending selective mirror first (if any), then fresh samples m + sigma B D z. Draws, in
     * order: N Gaussians for the mirror's random length when it is rescaled, then N per fresh candidate.
     */
    @Override
    public double[][] ask(RandomGenerator rng) {
        if (rng == null) {
            throw new IllegalArgumentException("rng must not be null");
        }
        updateDecompositionIfDue();
        List<double[]> out = new ArrayList<>(params.popsize());
        lastMirrorIndex = -1;
        if (mirrorDirection != null) {
            double[] y = mirrorDirection;
            mirrorDirection = null;
            double length = mahalanobisNorm(y);
            double factor = 1;
            if (length > params.mirrorKeepLength()) {
                double chi = 0;
                for (int i = 0; i < n; i++) {
                    double g = rng.nextGaussian();
                    chi += g * g;
                }
                factor = Math.sqrt(chi) / length;
            }
            out.add(mirrorCandidate(y, factor));
            lastMirrorIndex = 0;
        }
        double[] dz = new double[n];
        while (out.size() < params.popsize()) {
            for (int i = 0; i < n; i++) {
                dz[i] = eigen.axisLengths()[i] * rng.nextGaussian();
            }
            double[] x = new double[n];
            for (int i = 0; i < n; i++) {
                double[] bi = eigen.basis()[i];
                double v = 0;
                for (int j = 0; j < n; j++) {
                    v += bi[j] * dz[j];
                }
                x[i] = mean[i] + sigma * v;
            }
            out.add(x);
        }
        double[][] candidates = out.toArray(double[][]::new);
        lastAsked = new double[candidates.length][];
        for (int k = 0; k < candidates.length; k++) {
            lastAsked[k] = candidates[k].clone();
        }
        return candidates;
    }

    /** m + sigma (y factor / sigma), as pycma computes the injected direction (evolution_strategy.py:2262, :2331). */
    double[] mirrorCandidate(double[] y, double factor) {
        double[] x = new double[n];
        for (int i = 0; i < n; i++) {
            x[i] = mean[i] + sigma * (y[i] * (factor / sigma));
        }
        return x;
    }

    /** The direction the next ask mirrors, or null (for tests). */
    double[] mirrorDirection() {
        return mirrorDirection == null ? null : mirrorDirection.clone();
    }

    /** ||C^{-1/2} x|| / sigma with the current decomposition (evolution_strategy.py:3718). */
    double mahalanobisNorm(double[] x) {
        return norm(eigen.inverseSqrt(x)) / sigma;
    }

    /**
     * Updates from evaluated solutions (minimisation). A solution equal to one the last {@link #ask} returned is
     * taken as sampled; any other is shortened first (pycma's default {@code check_points=None}).
     */
    @Override
    public void tell(double[][] solutions, double[] fitness) {
        checkShapes(solutions, fitness);
        boolean[] asked = new boolean[solutions.length];
        int mirror = -1;
        for (int k = 0; k < solutions.length; k++) {
            for (int a = 0; a < lastAsked.length; a++) {
                if (Arrays.equals(solutions[k], lastAsked[a])) {
                    asked[k] = true;
                    if (a == lastMirrorIndex) {
                        mirror = k;
                    }
                    break;
                }
            }
        }
        update(solutions, fitness, asked, mirror);
    }

    /** tell with {@code check_points=False}: nothing is shortened. */
    public void tellWithoutShortening(double[][] solutions, double[] fitness) {
        checkShapes(solutions, fitness);
        boolean[] asked = new boolean[solutions.length];
        Arrays.fill(asked, true);
        update(solutions, fitness, asked, -1);
    }

    /** tell for solutions all taken as asked, the one at {@code mirrorIndex} (or none, -1) a selective mirror. */
    void tellAsked(double[][] solutions, double[] fitness, int mirrorIndex) {
        checkShapes(solutions, fitness);
        boolean[] asked = new boolean[solutions.length];
        Arrays.fill(asked, true);
        update(solutions, fitness, asked, mirrorIndex);
    }

    /** What one tell decided, for tests against pycma's recorded runs. */
    record TellTrace(int[] ranking, double[] fitnessUsed, boolean hsig, double hsigLhs, double[] cUpdateWeights,
                     double[] shorteningDivisors) {}

    private TellTrace lastTrace;

    TellTrace lastTrace() {
        return lastTrace;
    }

    private void update(double[][] solutions, double[] fitnessIn, boolean[] asked, int mirror) {
        int lambda = solutions.length;
        double[] fitness = medianForNaN(fitnessIn);
        countiter++;
        Integer[] order = new Integer[lambda];
        for (int i = 0; i < lambda; i++) {
            order[i] = i;
        }
        Arrays.sort(order, Comparator.comparingDouble((Integer i) -> fitness[i]));

        double[] mold = mean.clone();
        // Shorten solutions ask did not return (repair_genotype), from the old mean with the current sigma.
        double[][] pop = new double[lambda][];
        double[] divisors = new double[lambda];
        for (int k = 0; k < lambda; k++) {
            pop[k] = solutions[k].clone();
            divisors[k] = 1;
            if (!asked[k]) {
                updateDecompositionIfDue();
                double[] dx = new double[n];
                for (int i = 0; i < n; i++) {
                    dx[i] = pop[k][i] - mold[i];
                }
                double fac = mahalanobisNorm(dx) / params.repairUpperLength();
                if (fac > 1) {
                    for (int i = 0; i < n; i++) {
                        pop[k][i] = (pop[k][i] - mold[i]) / fac + mold[i];
                    }
                    divisors[k] = fac;
                }
            }
        }

        // Mean: m_old + (sum w_i x_i:lambda - m_old) over the positive weights (evolution_strategy.py:2942).
        double[] wPos = params.positiveWeights();
        int mu = Math.min(wPos.length, lambda);
        for (int i = 0; i < n; i++) {
            double s = 0;
            for (int r = 0; r < mu; r++) {
                s += wPos[r] * pop[order[r]][i];
            }
            mean[i] = mold[i] + (s - mold[i]);
        }

        // p_sigma with C^{-1/2} of the last decomposition (sigma_adaptation.py:212-229).
        double[] shift = new double[n];
        for (int i = 0; i < n; i++) {
            shift[i] = mean[i] - mold[i];
        }
        double[] z = eigen.inverseSqrt(shift);
        double zFactor = Math.sqrt(params.muEff()) / sigma;
        double csFactor = Math.sqrt(params.cSigma() * (2 - params.cSigma()));
        double psSq = 0;
        for (int i = 0; i < n; i++) {
            pathSigma[i] = (1 - params.cSigma()) * pathSigma[i] + csFactor * (z[i] * zFactor);
            psSq += pathSigma[i] * pathSigma[i];
        }
        double hsigLhs = psSq / (1 - Math.pow(1 - params.cSigma(), 2.0 * countiter)) / n - 1;
        boolean hsig = hsigLhs < params.hsigThreshold();
        double h = hsig ? 1 : 0;
        double cc = params.cc();
        double c1 = params.c1();
        double cMu = params.cMu();
        double c1a = c1 * (1 - (1 - h * h) * cc * (2 - cc));
        double pcFactor = h * (Math.sqrt(cc * (2 - cc) * params.muEff()) / sigma);
        for (int i = 0; i < n; i++) {
            pathC[i] = (1 - cc) * pathC[i] + pcFactor * shift[i];
        }

        // Covariance (evolution_strategy.py:3027-3108, sampler.py:315-347).
        double[] w = params.weightsFor(lambda);
        double[] weights = new double[lambda + 1];
        weights[0] = c1a;
        for (int r = 0; r < lambda; r++) {
            weights[r + 1] = cMu * w[r];
            if (order[r] == mirror && weights[r + 1] < 0) {
                weights[r + 1] *= 0.0; // CMA_active_injected = 0
            }
        }
        double[] traceWeights = weights.clone();
        double[][] vectors = new double[lambda + 1][];
        double pcScale = Math.sqrt(c1 / (c1a + 1e-23));
        vectors[0] = new double[n];
        for (int i = 0; i < n; i++) {
            vectors[0][i] = pcScale * pathC[i];
        }
        for (int r = 0; r < lambda; r++) {
            double[] y = new double[n];
            double[] x = pop[order[r]];
            for (int i = 0; i < n; i++) {
                y[i] = (x[i] - mold[i]) / sigma;
            }
            vectors[r + 1] = y;
        }
        double weightSum = 0;
        for (double v : weights) {
            weightSum += v;
        }
        double decay = 1 + 0 - weightSum;
        for (int k = 0; k < weights.length; k++) {
            if (weights[k] < 0) {
                double norm = norm(eigen.inverseSqrt(vectors[k]));
                weights[k] *= vectors[k].length / ((norm + 1e-9) * (norm + 1e-9));
            }
        }
        for (int i = 0; i < n; i++) {
            double[] ci = c[i];
            for (int j = 0; j <= i; j++) {
                double s = 0;
                for (int k = 0; k < weights.length; k++) {
                    if (weights[k] != 0) {
                        s += weights[k] * vectors[k][i] * vectors[k][j];
                    }
                }
                ci[j] = ci[j] * decay + s;
            }
        }
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < i; j++) {
                c[j][i] = c[i][j];
            }
        }
        tellsSinceDecomposition++;

        // Step size (sigma_adaptation.py:261-272).
        double s = (Math.sqrt(psSq) / params.chiN() - 1) * params.cSigma() / params.dSigma();
        double newSigma = sigma * Math.exp(Math.max(-1, Math.min(1, s)));
        if (!(newSigma > 0) || !Double.isFinite(newSigma)) {
            throw new IllegalStateException("CMA-ES numerical breakdown: sigma became " + newSigma);
        }
        sigma = newSigma;

        // The next ask mirrors this generation's worst, unless it was this generation's mirror (:2621-2643).
        mirrorDirection = null;
        if (params.mirrors() > 0) {
            int worst = order[lambda - 1];
            if (worst != mirror) {
                mirrorDirection = new double[n];
                for (int i = 0; i < n; i++) {
                    mirrorDirection[i] = mold[i] - pop[worst][i];
                }
            }
        }
        lastAsked = new double[0][];
        lastMirrorIndex = -1;
        int[] ranking = new int[lambda];
        for (int r = 0; r < lambda; r++) {
            ranking[r] = order[r];
        }
        lastTrace = new TellTrace(ranking, fitness, hsig, hsigLhs, traceWeights, divisors);
    }

    /** NaN fitness values become numpy's median of the others (evolution_strategy.py:2766-2775). */
    static double[] medianForNaN(double[] fitness) {
        double[] out = fitness.clone();
        double[] finite = Arrays.stream(fitness).filter(v -> !Double.isNaN(v)).sorted().toArray();
        if (finite.length == fitness.length) {
            return out;
        }
        if (finite.length == 0) {
            Arrays.fill(out, Double.POSITIVE_INFINITY);
            return out;
        }
        int m = finite.length / 2;
        double median = finite.length % 2 == 1 ? finite[m] : (finite[m - 1] + finite[m]) / 2;
        for (int i = 0; i < out.length; i++) {
            if (Double.isNaN(out[i])) {
                out[i] = median;
            }
        }
        return out;
    }

    private void checkShapes(double[][] solutions, double[] fitness) {
        if (solutions == null || fitness == null || solutions.length < 1 || solutions.length != fitness.length) {
            throw new IllegalArgumentException("tell needs as many fitness values as solutions, at least one");
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
    }

    private static double norm(double[] v) {
        double s = 0;
        for (double x : v) {
            s += x * x;
        }
        return Math.sqrt(s);
    }

    private static double[][] copyOf(double[][] m) {
        double[][] out = new double[m.length][];
        for (int i = 0; i < m.length; i++) {
            out[i] = m[i].clone();
        }
        return out;
    }
}
