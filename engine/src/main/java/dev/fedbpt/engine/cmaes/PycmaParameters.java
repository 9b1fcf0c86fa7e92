package dev.fedbpt.engine.cmaes;

import java.util.Arrays;

/**
 * Strategy parameters of pycma 3.4.0's {@code CMAEvolutionStrategy} with default options, as FedBPT's reference
 * code (NVIDIA FLARE research/fed-bpt) builds its clients' and its server's. Every formula is pycma's, with its
 * file and line at tag r3.4.0; {@code ../shared/reference/pycma-fixtures/params.json} records the values.
 *
 * @param dimension     N
 * @param popsize       lambda, the candidates per generation
 * @param heldWeights   pycma's whole weight list (length L: popsize, or 2 CMA_mu when CMA_mu is set): the mu
 *                      positive ones sum to 1, the negative ones are finalised (recombination_weights.py:244-293)
 * @param mu            the number of positive weights
 * @param mirrors       lam_mirr: selectively mirrored candidates per generation (evolution_strategy.py:4246)
 * @param chiN          E||N(0, I)|| as the step-size update uses it: sqrt(N)(1 - 1/(4N) + 1/(26 N^2))
 *                      (utilities/math.py:613), not the 1/(21 N^2) of es.const.chiN
 * @param lazyGap       tells between eigendecompositions, 1 / (c1 + c_mu + 1e-23) / N / 10 (evolution_strategy.py:1731)
 */
public record PycmaParameters(int dimension, int popsize, double[] heldWeights, int mu, double muEff,
                              double muEffMinus, int mirrors, double cSigma, double dSigma, double cc, double c1,
                              double cMu, double chiN, double hsigThreshold, double lazyGap,
                              double repairUpperLength, double mirrorKeepLength) {

    /** A client of the reference code: popsize lambda, every other option at pycma's default. */
    public static PycmaParameters client(int dimension, int popsize) {
        return of(dimension, popsize, 0, true);
    }

    /** The reference code's server: popsize = CMA_mu = the number of clients told (global_es.py:69-79). */
    public static PycmaParameters server(int dimension, int clients) {
        return of(dimension, clients, clients, true);
    }

    /**
     * @param cmaMu      pycma's CMA_mu option, 0 for its default (None)
     * @param mirrorsOn  CMA_mirrors at its default 'popsize < 6' (true) or 0 (false)
     */
    public static PycmaParameters of(int dimension, int popsize, int cmaMu, boolean mirrorsOn) {
        if (dimension < 1) {
            throw new IllegalArgumentException("dimension must be >= 1, was " + dimension);
        }
        if (popsize < 2) {
            throw new IllegalArgumentException("popsize must be >= 2, was " + popsize);
        }
        if (cmaMu < 0) {
            throw new IllegalArgumentException("CMA_mu must be >= 0 (0: pycma's default), was " + cmaMu);
        }
        double n = dimension;
        int held = cmaMu > 0 ? 2 * cmaMu : popsize; // evolution_strategy.py:4232
        double[] w = new double[held];
        for (int i = 0; i < held; i++) {
            w[i] = Math.log((held + 1) / 2.0) - Math.log(i + 1); // recombination_weights.py:177
        }
        int mu = 0;
        double positiveSum = 0;
        for (double v : w) {
            if (v > 0) {
                mu++;
                positiveSum += v;
            }
        }
        for (int i = 0; i < held; i++) {
            w[i] /= positiveSum;
        }
        double sumSq = 0;
        for (int i = 0; i < mu; i++) {
            sumSq += w[i] * w[i];
        }
        double muEff = 1 / sumSq;
        double negativeSum = 0;
        for (int i = mu; i < held; i++) {
            negativeSum += w[i];
        }
        if (negativeSum != 0) {
            for (int i = mu; i < held; i++) {
                w[i] /= -negativeSum; // recombination_weights.py:190-192: the negative ones sum to -1
            }
        }
        double negSum = 0;
        double negSumSq = 0;
        for (int i = mu; i < held; i++) {
            negSum += w[i];
            negSumSq += w[i] * w[i];
        }
        double muEffMinus = negSumSq > 0 ? negSum * negSum / negSumSq : 0;

        int mirrors = mirrorsOn && popsize < 6
                ? (int) (0.5 + 0.16 * Math.min(popsize, 2 * n + 2) + 0.29) : 0;
        double cSigma = (muEff + 2) / (n + muEff + 3); // sigma_adaptation.py:171
        double dSigma = 0.5 + Math.min(1, Math.pow(mirrors / (0.159 * popsize) - 1, 2)) / 2
                + 2 * Math.max(0, Math.sqrt((muEff - 1) / (n + 1)) - 1) + cSigma; // sigma_adaptation.py:173-178
        double cc = (4 + muEff / n) / (n + 4 + 2 * muEff / n);
        double c1 = Math.min(1, held / 6.0) * 2 / ((n + 1.3) * (n + 1.3) + muEff); // interfaces.py:323
        double cMu = Math.min(1 - c1, 2 * (0.25 + muEff - 2 + 1 / muEff) / ((n + 2) * (n + 2) + muEff)); // :327-331
        finaliseNegativeWeights(w, mu, dimension, c1, cMu, muEff, muEffMinus);
        double chiN = Math.sqrt(n) * (1 - 1 / (4 * n) + 1 / (26 * n * n));
        double lazyGap = 1 / (c1 + cMu + 1e-23) / n / 10;
        return new PycmaParameters(dimension, popsize, w, mu, muEff, muEffMinus, mirrors, cSigma, dSigma, cc, c1, cMu,
                chiN, 1 + 4 / (n + 1), lazyGap, Math.sqrt(n) + 2 * n / (n + 2), Math.sqrt(n));
    }

    /** recombination_weights.py:244-293, with pos_def: zero decay, then the positive-definiteness and mueff limits. */
    private static void finaliseNegativeWeights(double[] w, int mu, int dimension, double c1, double cMu,
                                                double muEff, double muEffMinus) {
        if (w[w.length - 1] >= 0) {
            return;
        }
        if (cMu > 0) {
            setNegativeSum(w, mu, 1 + c1 / cMu);
            limitNegativeSum(w, mu, (1 - c1 - cMu) / cMu / dimension);
        }
        limitNegativeSum(w, mu, 1 + 2 * muEffMinus / (muEff + 2));
    }

    private static void setNegativeSum(double[] w, int mu, double value) {
        double sum = 0;
        for (int i = mu; i < w.length; i++) {
            sum += w[i];
        }
        double factor = -value / sum;
        for (int i = mu; i < w.length; i++) {
            w[i] *= factor;
        }
    }

    private static void limitNegativeSum(double[] w, int mu, double value) {
        double sum = 0;
        for (int i = mu; i < w.length; i++) {
            sum += w[i];
        }
        if (Math.abs(sum) > value) {
            setNegativeSum(w, mu, value);
        }
    }

    /** Whether the sampler decomposes C again after {@code tells} tells since the last time (sampler.py:363-366). */
    public boolean decompositionDue(int tells) {
        return !(tells < lazyGap || (lazyGap == 0 && tells == 0));
    }

    /** The weights tell applies to {@code told} ranked solutions (recombination_weights.py:196-204). */
    public double[] weightsFor(int told) {
        int held = heldWeights.length;
        if (told <= mu) {
            return Arrays.copyOf(heldWeights, told);
        }
        double[] out = new double[told];
        if (told < held) {
            System.arraycopy(heldWeights, 0, out, 0, mu);
            System.arraycopy(heldWeights, held - (told - mu), out, mu, told - mu);
        } else {
            System.arraycopy(heldWeights, 0, out, 0, mu);
            System.arraycopy(heldWeights, mu, out, mu + (told - held), held - mu);
        }
        return out;
    }

    /** The positive weights, which move the mean. */
    public double[] positiveWeights() {
        return Arrays.copyOf(heldWeights, mu);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PycmaParameters p && dimension == p.dimension && popsize == p.popsize
                && Arrays.equals(heldWeights, p.heldWeights) && mirrors == p.mirrors;
    }

    @Override
    public int hashCode() {
        return (31 * dimension + popsize) * 31 + Arrays.hashCode(heldWeights);
    }

    @Override
    public String toString() {
        return "PycmaParameters[n=" + dimension + ", popsize=" + popsize + ", mu=" + mu + ", mirrors=" + mirrors
                + ", cSigma=" + cSigma + ", dSigma=" + dSigma + ", c1=" + c1 + ", cMu=" + cMu + "]";
    }
}
