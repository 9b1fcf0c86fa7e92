package dev.fedbpt.engine.cmaes;

import java.util.Arrays;

/**
 * Strategy parameters of CMA-ES, following Hansen, "The CMA Evolution Strategy: A Tutorial" (2016), Table 1, with
 * pycma's refinements of c_sigma, c1 and c_mu (see {@link #fromWeights}).
 *
 * @param weights recombination weights by rank: the first {@code mu} are positive, non-increasing and sum to 1
 *                (they move the mean); an optional tail (length up to lambda) of negative weights is used only
 *                by the covariance update ("active" CMA, the tutorial's default, Table 1)
 */
public record CmaesParameters(int dimension, int lambda, int mu, double[] weights, double muEff, double cSigma,
                              double dSigma, double cc, double c1, double cMu, double chiN) {

    public CmaesParameters {
        if (dimension < 1) {
            throw new IllegalArgumentException("dimension must be >= 1, was " + dimension);
        }
        if (lambda < 1) {
            throw new IllegalArgumentException("lambda must be >= 1, was " + lambda);
        }
        if (mu < 1 || mu > lambda) {
            throw new IllegalArgumentException("mu must be in [1, lambda=" + lambda + "], was " + mu);
        }
        if (weights == null || weights.length < mu || weights.length > lambda) {
            throw new IllegalArgumentException("weights must have length in [mu=" + mu + ", lambda=" + lambda + "]");
        }
        for (int i = 0; i < weights.length; i++) {
            double w = weights[i];
            boolean ok = Double.isFinite(w) && (i < mu ? w > 0 : w <= 0);
            if (!ok) {
                throw new IllegalArgumentException("the first mu=" + mu + " weights must be > 0 and the rest <= 0: "
                        + Arrays.toString(weights));
            }
        }
    }

    /** Hansen's default population size 4 + floor(3 ln n). */
    public static int defaultLambda(int dimension) {
        if (dimension < 1) {
            throw new IllegalArgumentException("dimension must be >= 1, was " + dimension);
        }
        return 4 + (int) Math.floor(3 * Math.log(dimension));
    }

    /**
     * Tutorial defaults (Hansen 2016, Table 1): w'_i = ln((lambda+1)/2) - ln i for i = 1..lambda; the mu = floor(lambda/2)
     * positive ones are normalised to sum 1, the negative ones (active CMA, covariance only) are scaled by
     * min(alpha_mu^-, alpha_mueff^-, alpha_posdef^-) / sum |w'^-|.
     */
    public static CmaesParameters standard(int dimension, int lambda) {
        if (lambda < 1) {
            throw new IllegalArgumentException("lambda must be >= 1, was " + lambda);
        }
        if (lambda < 3) {
            // ln((lambda+1)/2) - ln i has no usable positive part for lambda = 1 and no negative part for 2.
            return fromWeights(dimension, lambda, new double[] {1.0});
        }
        int mu = lambda / 2;
        double[] raw = new double[lambda];
        for (int i = 0; i < lambda; i++) {
            raw[i] = Math.log((lambda + 1) / 2.0) - Math.log(i + 1);
        }
        CmaesParameters positive = fromWeights(dimension, lambda, Arrays.copyOf(raw, mu));
        double negSum = 0;
        double negSumSq = 0;
        for (int i = mu; i < lambda; i++) {
            negSum += raw[i];
            negSumSq += raw[i] * raw[i];
        }
        double[] w = Arrays.copyOf(positive.weights(), lambda);
        if (negSum < 0) {
            double muEffMinus = negSum * negSum / negSumSq;
            double alphaMu = 1 + positive.c1() / positive.cMu();
            double alphaMuEff = 1 + 2 * muEffMinus / (positive.muEff() + 2);
            double alphaPosDef = (1 - positive.c1() - positive.cMu()) / (dimension * positive.cMu());
            double scale = Math.min(alphaMu, Math.min(alphaMuEff, alphaPosDef)) / -negSum;
            for (int i = mu; i < lambda; i++) {
                w[i] = raw[i] * scale;
            }
        }
        if (!(positive.cMu() > 0)) {
            w = positive.weights(); // no rank-mu update, so negative weights would have no effect
        }
        return new CmaesParameters(dimension, lambda, mu, w, positive.muEff(), positive.cSigma(), positive.dSigma(),
                positive.cc(), positive.c1(), positive.cMu(), positive.chiN());
    }

    /**
     * A prescribed mu (may equal lambda) with Hansen's log weights for a given mu, w_i ~ ln(mu + 1/2) - ln i,
     * which stay positive for every i <= mu.
     */
    public static CmaesParameters logWeights(int dimension, int lambda, int mu) {
        if (mu < 1 || mu > lambda) {
            throw new IllegalArgumentException("mu must be in [1, lambda=" + lambda + "], was " + mu);
        }
        double[] w = new double[mu];
        for (int i = 0; i < mu; i++) {
            w[i] = Math.log(mu + 0.5) - Math.log(i + 1);
        }
        return fromWeights(dimension, lambda, w);
    }

    /** Equal weights 1/mu over the mu best (the setting of FedBPT's Appendix A derivation). */
    public static CmaesParameters equalWeights(int dimension, int lambda, int mu) {
        if (mu < 1 || mu > lambda) {
            throw new IllegalArgumentException("mu must be in [1, lambda=" + lambda + "], was " + mu);
        }
        double[] w = new double[mu];
        Arrays.fill(w, 1.0);
        return fromWeights(dimension, lambda, w);
    }

    /**
     * Derives every learning rate from (unnormalised, positive) weights of the mu = rawWeights.length best using the
     * tutorial's formulas; no negative weights.
     */
    public static CmaesParameters fromWeights(int dimension, int lambda, double[] rawWeights) {
        if (dimension < 1) {
            throw new IllegalArgumentException("dimension must be >= 1, was " + dimension);
        }
        if (rawWeights == null || rawWeights.length == 0) {
            throw new IllegalArgumentException("weights must be non-empty");
        }
        if (rawWeights.length > lambda) {
            throw new IllegalArgumentException("more weights (" + rawWeights.length + ") than lambda=" + lambda);
        }
        double sum = 0;
        for (double w : rawWeights) {
            if (!(w > 0) || !Double.isFinite(w)) {
                throw new IllegalArgumentException("weights must be finite and > 0: " + Arrays.toString(rawWeights));
            }
            sum += w;
        }
        double[] w = new double[rawWeights.length];
        double sumSq = 0;
        for (int i = 0; i < w.length; i++) {
            w[i] = rawWeights[i] / sum;
            sumSq += w[i] * w[i];
        }
        double n = dimension;
        double muEff = 1.0 / sumSq;
        // Tutorial (2016) formulas with the refinements of Hansen's reference implementation pycma, which measured
        // faster on the validation benchmark: c_sigma denominator n + muEff + 3 (tutorial: + 5), c1 scaled by
        // min(1, lambda/6), and the 0.25 offset in c_mu's numerator.
        double cSigma = (muEff + 2) / (n + muEff + 3);
        double dSigma = 1 + 2 * Math.max(0, Math.sqrt((muEff - 1) / (n + 1)) - 1) + cSigma;
        double cc = (4 + muEff / n) / (n + 4 + 2 * muEff / n);
        double c1 = Math.min(1, lambda / 6.0) * 2 / ((n + 1.3) * (n + 1.3) + muEff);
        double alphaMu = 2;
        double cMu = Math.min(1 - c1,
                alphaMu * (0.25 + muEff - 2 + 1 / muEff) / ((n + 2) * (n + 2) + alphaMu * muEff / 2));
        cMu = Math.max(0, cMu); // tiny muEff can make the formula negative; then there is no rank-mu update
        double chiN = Math.sqrt(n) * (1 - 1 / (4 * n) + 1 / (21 * n * n));
        return new CmaesParameters(dimension, lambda, w.length, w, muEff, cSigma, dSigma, cc, c1, cMu, chiN);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CmaesParameters p && dimension == p.dimension && lambda == p.lambda && mu == p.mu
                && Arrays.equals(weights, p.weights) && Double.compare(muEff, p.muEff) == 0
                && Double.compare(cSigma, p.cSigma) == 0 && Double.compare(dSigma, p.dSigma) == 0
                && Double.compare(cc, p.cc) == 0 && Double.compare(c1, p.c1) == 0
                && Double.compare(cMu, p.cMu) == 0 && Double.compare(chiN, p.chiN) == 0;
    }

    @Override
    public int hashCode() {
        return (31 * dimension + lambda) * 31 + Arrays.hashCode(weights);
    }

    @Override
    public String toString() {
        return "CmaesParameters[n=" + dimension + ", lambda=" + lambda + ", mu=" + mu + ", muEff=" + muEff
                + ", cSigma=" + cSigma + ", dSigma=" + dSigma + ", cc=" + cc + ", c1=" + c1 + ", cMu=" + cMu + "]";
    }
}
