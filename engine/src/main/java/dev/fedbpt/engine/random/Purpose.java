package dev.fedbpt.engine.random;

/**
 * Why a random stream is drawn. The ordinal is mixed into the seed, so constants must only ever be
 * APPENDED: reordering or removing one would silently change every experiment's random numbers.
 */
public enum Purpose {
    PROJECTION,
    CLIENT_SAMPLING,
    CLIENT_CMAES,
    SERVER_CMAES,
    PERTURBATION,
    FEW_SHOT,
    PARTITION,
    PROBE,
    /** Order in which a simulation visits the sampled clients (only used to prove order independence). */
    CLIENT_ORDER,
    /** CMA-ES benchmark runs (ours and Commons Math's). */
    BENCHMARK,
    /** Faults injected on purpose (which client drops, crashes or is late; which batch or score breaks). */
    FAULTS,
    /** The reference code's perturbation: one mask per client and round over every token. */
    PERTURBATION_PER_ROUND,
    /** Fed-BBPT: the order a client's rows go into minibatches each round. */
    FEDBBPT_SHUFFLE,
    /** Fed-BBPT: the prompts a client samples from its categorical distributions at each step. */
    FEDBBPT_SAMPLING,
    /** DLS-EC: the position and the minibatch of each local search step. */
    DLSEC_SEARCH,
    /** DLS-EC: the projection A of post-tuning (BBT's, shared by every client). */
    DLSEC_PROJECTION,
    /** DLS-EC: the candidates of a client's post-tuning CMA-ES. */
    DLSEC_POST_TUNING,
    /** BBT(Fed), DLS-EC's baseline: the candidates of a client's local CMA-ES in a federated round. */
    BBT_SEARCH,
    /** Gradient methods: the order of a client's minibatches in each local epoch. */
    GRADIENT_SHUFFLE,
    /** Gradient methods: the initial prefix, drawn once for the experiment (server and clients alike). */
    GRADIENT_INIT,
    /** FedPepTAO: the Rademacher start vector of stochastic Lanczos (device, round). */
    FEDPEPTAO_LANCZOS,
    /** The test rows a capped test set keeps ({@code data.test-limit}, stratified by class). */
    TEST_SAMPLE,
    /** Static int8 calibration ({@code model.precision = int8}): which training rows (0), the prompts' z (1). */
    INT8_CALIBRATION,
    /** FedP-tuning's prompt encoder: its initial parameters, drawn once for the experiment. */
    PROMPT_ENCODER_INIT,
    /**
     * A personalised client's held-apart rows (dls-ec.post-tuning.rows = held-apart): its post-tuning rows and its
     * dev rows, drawn from the train file's rows outside the federated few-shot set.
     */
    HELD_APART_ROWS
}
