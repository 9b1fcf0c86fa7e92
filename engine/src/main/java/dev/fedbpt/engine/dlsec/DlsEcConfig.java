package dev.fedbpt.engine.dlsec;

import dev.fedbpt.engine.method.MethodSettings;

/**
 * DLS-EC's settings (keys under {@code dls-ec.}; what each means and why its default is what it is: the defaults
 * file). The paper's: T, K, S, Phi, alpha, the LASSO schedule [first-pass, Phi], the download form and post-tuning's
 * sigma. The spec's recommendations where the paper is silent: keep-current, the minibatch rule, the first prompt
 * tokens, post-tuning's d, population and budget.
 */
record DlsEcConfig(int promptLength, int candidates, int localSteps, int phi, double alpha, AlphaScale alphaScale,
                   int firstPass,
                   Download download, boolean keepCurrent, int batchSize, int fullBatchUpTo, int firstToken,
                   PostTuning postTuning) {

    /**
     * What alpha is measured in: absolute (Eq. 8 as printed) or max-correlation (a share of the smallest weight that
     * zeroes every coefficient of a pass, 2 max_j |e_j . R|; it grows with the squared embedding norm, R being a
     * difference of embeddings, so one alpha means one sparsity on any model's embeddings).
     */
    enum AlphaScale { ABSOLUTE, MAX_CORRELATION }

    /** What the server sends: compressed (Eq. 11: Phi token ids and fp16 coefficients per position) or full. */
    enum Download { COMPRESSED, FULL }

    /** BBT after the federated rounds: CMA-ES over z, prompt P' + reshape(A z). */
    record PostTuning(int dimension, double sigma, int population, int budget) {}

    static DlsEcConfig from(MethodSettings s) {
        return new DlsEcConfig(s.integer("dls-ec.prompt-length", 1, 4096), s.integer("dls-ec.candidates", 1, 1000),
                localSteps(s), s.integer("dls-ec.phi", 1, 1000),
                alpha(s), s.choice("dls-ec.alpha-scale", AlphaScale.class),
                s.integer("dls-ec.first-pass", 1, 1_000_000),
                s.choice("dls-ec.download", Download.class), s.flag("dls-ec.keep-current"),
                s.integer("dls-ec.batch-size", 1, 1_000_000), s.integer("dls-ec.full-batch-up-to", 0, 1_000_000),
                s.integer("dls-ec.first-token", 0, Integer.MAX_VALUE),
                new PostTuning(postTuningDimension(s),
                        s.number("dls-ec.post-tuning.sigma", 1e-12, 1e6),
                        s.integer("dls-ec.post-tuning.population", 2, 100_000),
                        s.integer("dls-ec.post-tuning.budget", 0, Integer.MAX_VALUE)));
    }

    /** A share of the largest useful weight is at most 1 (every coefficient zero); an absolute one any weight. */
    private static double alpha(MethodSettings s) {
        boolean share = s.choice("dls-ec.alpha-scale", AlphaScale.class) == AlphaScale.MAX_CORRELATION;
        return s.number("dls-ec.alpha", 0, share ? 1 : 1e6);
    }

    /** S, a client's local steps per round. */
    static int localSteps(MethodSettings s) {
        return s.integer("dls-ec.local-steps", 1, 1_000_000);
    }

    /** d of post-tuning's z. */
    static int postTuningDimension(MethodSettings s) {
        return s.integer("dls-ec.post-tuning.dimension", 1, 100_000);
    }
}
