package dev.fedbpt.engine.dlsec;

import dev.fedbpt.engine.method.MethodSettings;
import dev.fedbpt.engine.method.SettingException;

/**
 * DLS-EC's settings (keys under {@code dls-ec.}; what each means and why its default is what it is: the defaults
 * file). The paper's: T, K, S, Phi, alpha, the LASSO schedule [first-pass, Phi], the download form and post-tuning's
 * sigma and held-apart rows of shots-per-class. The spec's recommendations where the paper is silent: keep-current,
 * the minibatch rule, the first prompt tokens, post-tuning's d, population and budget; BBT's eval-every.
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

    /**
     * What post-tuning fits on: held-apart (the paper's: shots-per-class rows per class per client apart from the
     * federated training data, and a dev set as large that picks the prompt tested, as BBT's code does) or training
     * (the client's own federated training rows, the best-loss z tested).
     */
    enum Rows { HELD_APART, TRAINING }

    /**
     * BBT after the federated rounds: CMA-ES over z, prompt P' + reshape(A z); {@code shotsPerClass} and
     * {@code evalEvery} (forward calls between dev evaluations) are read under held-apart only.
     */
    record PostTuning(int dimension, double sigma, int population, int budget, Rows rows, int shotsPerClass,
                      int evalEvery) {
        /** These settings with BBT's own sigma and budget (the bbt baseline). */
        PostTuning with(double sigma, int budget) {
            return new PostTuning(dimension, sigma, population, budget, rows, shotsPerClass, evalEvery);
        }

        /**
         * Refuses held-apart post-tuning whose forward calls (for the budget read from {@code budgetKey}) end before
         * its first dev evaluation: it would test P' itself.
         */
        PostTuning checked(String budgetKey) {
            if (rows == Rows.HELD_APART && calls() > 0 && calls() < evalEvery) {
                throw new SettingException("dls-ec.post-tuning.eval-every", "post-tuning makes " + calls()
                        + " forward calls (" + budgetKey + " in whole generations of "
                        + "dls-ec.post-tuning.population), fewer than the " + evalEvery + " before its first dev "
                        + "evaluation, so no tuned prompt would be picked; set a smaller eval-every");
            }
            return this;
        }

        /** Forward calls post-tuning makes: whole generations of population candidates. */
        int calls() {
            return budget / population * population;
        }

        /** How many candidates post-tuning scores on the dev rows: one every eval-every forward calls. */
        int devEvaluations() {
            return rows == Rows.HELD_APART ? calls() / evalEvery : 0;
        }
    }

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
                        s.integer("dls-ec.post-tuning.budget", 0, Integer.MAX_VALUE), rows(s),
                        heldApartPerClass(s),
                        rows(s) == Rows.HELD_APART ? s.integer("dls-ec.post-tuning.eval-every", 1,
                                Integer.MAX_VALUE) : 1).checked("dls-ec.post-tuning.budget"));
    }

    /** What post-tuning fits on. */
    static Rows rows(MethodSettings s) {
        return s.choice("dls-ec.post-tuning.rows", Rows.class);
    }

    /** Held-apart rows per class a client gets (and dev rows as many): 0 when post-tuning reads its training rows. */
    static final String HELD_APART_KEY = "dls-ec.post-tuning.shots-per-class";

    static int heldApartPerClass(MethodSettings s) {
        return rows(s) == Rows.HELD_APART ? s.integer(HELD_APART_KEY, 1, 1_000_000) : 0;
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
