package dev.fedbpt.engine.fedbbpt;

/**
 * Fed-BBPT's settings (text path, federated BDPL). Defaults in the configuration are BDPL's / Fed-BBPT's SST-2 values
 * (OTHER-METHODS.md C.3.4): prompt length n = 100, N = 200 candidates, I = 10 samples, lr 1e-4, weight decay 0.1,
 * clip 3, batch 128, 8000 API calls.
 *
 * @param promptLength  n, the prompt positions
 * @param candidates    N, the candidate tokens per position (fewer when the clients' data hold fewer distinct tokens)
 * @param samples       I, prompts sampled per step (>= 2: the VR-PGE divides by I - 1)
 * @param learningRate  AdamW's lr (no schedule: BDPL never builds the scheduler its arguments name)
 * @param weightDecay   AdamW's decoupled weight decay
 * @param clipNorm      the gradient's Frobenius norm is clipped to this (torch.nn.utils.clip_grad_norm_)
 * @param batchSize     rows per step; one local epoch per round
 * @param apiCallBudget API calls (one prompt on one batch) a client may spend over the whole run
 * @param adamState     whether a client's AdamW moments survive from one of its rounds to the next
 * @param weights       how the server weighs the clients' theta
 * @param pmiThreshold  the PMI at or above which two adjacent tokens join one n-gram
 * @param minCount      tokens, pairs and n-grams must be counted more than this often (BDPL's min_count and
 *                      ngram_freq_threshold, both 5: pmi_ngram.py:110,112)
 */
public record FedBbptConfig(int promptLength, int candidates, int samples, double learningRate, double weightDecay,
                            double clipNorm, int batchSize, long apiCallBudget, AdamState adamState, Weights weights,
                            double pmiThreshold, int minCount) {

    /** BDPL's pmi_ngram.py --min_pmi default (pmi_ngram.py:111). */
    public static final double BDPL_PMI_THRESHOLD = 1.0;
    /** BDPL's pmi_ngram.py --min_count and --ngram_freq_threshold defaults (pmi_ngram.py:110,112). */
    public static final int BDPL_MIN_COUNT = 5;

    /** What a client's AdamW keeps between its rounds. */
    public enum AdamState {
        /** First and second moments and the step count carry over (one optimizer per client, as BDPL's loop). */
        PERSIST,
        /** A fresh AdamW every round. */
        RESET
    }

    /** The server's average of the clients' theta. */
    public enum Weights {
        UNIFORM,
        /** Weighted by the clients' example counts. */
        SAMPLES
    }

    public FedBbptConfig {
        if (promptLength < 1 || candidates < 1) {
            throw new IllegalArgumentException("prompt length and candidates must be >= 1");
        }
        if (samples < 2) {
            throw new IllegalArgumentException("samples must be >= 2 (the VR-PGE divides by samples - 1), was "
                    + samples);
        }
        if (!(learningRate > 0) || !Double.isFinite(learningRate)) {
            throw new IllegalArgumentException("learning rate must be finite and > 0, was " + learningRate);
        }
        if (!(weightDecay >= 0) || !Double.isFinite(weightDecay)) {
            throw new IllegalArgumentException("weight decay must be finite and >= 0, was " + weightDecay);
        }
        if (!(clipNorm > 0) || !Double.isFinite(clipNorm)) {
            throw new IllegalArgumentException("clip norm must be finite and > 0, was " + clipNorm);
        }
        if (batchSize < 1 || apiCallBudget < 1) {
            throw new IllegalArgumentException("batch size and API call budget must be >= 1");
        }
        if (adamState == null || weights == null) {
            throw new IllegalArgumentException("adam state and weights must not be null");
        }
        if (!Double.isFinite(pmiThreshold)) {
            throw new IllegalArgumentException("pmi threshold must be finite, was " + pmiThreshold);
        }
        if (minCount < 0) {
            throw new IllegalArgumentException("min count must be >= 0, was " + minCount);
        }
    }

    public FedBbptConfig withAdamState(AdamState state) {
        return new FedBbptConfig(promptLength, candidates, samples, learningRate, weightDecay, clipNorm, batchSize,
                apiCallBudget, state, weights, pmiThreshold, minCount);
    }
}
