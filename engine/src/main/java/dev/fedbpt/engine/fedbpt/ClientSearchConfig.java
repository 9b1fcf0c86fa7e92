package dev.fedbpt.engine.fedbpt;

import dev.fedbpt.engine.cmaes.Cmaes;
import dev.fedbpt.engine.method.Precision;

/**
 * Local search settings of one client (paper: I = 8 iterations, population 5, perturbation rate 0.5), and the items
 * in which the paper's reading and the reference code's differ (../shared/reference/FEDBPT.md).
 * {@code uploadLocalState}: whether the server needs the client's whole local CMA-ES state (FedAvg-BBT averages
 * them). The client then uploads the fitness values it told its search (I x lambda numbers), from which the server
 * replays the state ({@link ClientSearch#replay}), rather than the state itself (the d x d covariance, 2 MB at
 * d = 500). FedBPT uploads only its mean and sigmas (d + I + 1 numbers). {@code precision}: the width of the numbers
 * a client uploads (float64, exact, by default); the told fitness values are rounded before the client's own search
 * takes them, so the server's replay stays exact.
 */
public record ClientSearchConfig(int iterations, int populationSize, double perturbationRate,
                                 boolean uploadLocalState, Optimizer optimizer, SigmaList sigmaList, Start start,
                                 Ranking ranking, Mask mask, Precision precision) {

    /** The local evolution strategy. */
    public enum Optimizer {
        /** Hansen's 2016 tutorial ({@link Cmaes.Variant#TUTORIAL}). */
        TUTORIAL,
        /** Mirrored sampling with Hansen and Ros's active update ({@link Cmaes.Variant#MIRRORED_ACTIVE}). */
        MIRRORED_ACTIVE,
        /** pycma 3.4.0 with its defaults, as the reference code's clients ({@link dev.fedbpt.engine.cmaes.Pycma}). */
        PYCMA
    }

    /** Which local sigmas are uploaded: the one each iteration sampled with (s_0..s_{I-1}), or each one after it. */
    public enum SigmaList { USED, AFTER_TELL }

    /** What the local search starts from: the global state as it is, or its light copy (zero paths, counter 0). */
    public enum Start { GLOBAL_STATE, LIGHT_COPY }

    /** The loss a client uploads and the server ranks by: the mean's clean loss, or its clean/perturbed ratio. */
    public enum Ranking { CLEAN_LOSS, RATIO_FITNESS }

    /** The perturbation mask: fresh every iteration over non-special tokens, or once a round over every token. */
    public enum Mask { PER_ITERATION, PER_ROUND }

    public ClientSearchConfig(int iterations, int populationSize, double perturbationRate) {
        this(iterations, populationSize, perturbationRate, true);
    }

    public ClientSearchConfig(int iterations, int populationSize, double perturbationRate, boolean uploadLocalState) {
        this(iterations, populationSize, perturbationRate, uploadLocalState, Optimizer.TUTORIAL);
    }

    /** The paper reading with the given optimizer. */
    public ClientSearchConfig(int iterations, int populationSize, double perturbationRate, boolean uploadLocalState,
                              Optimizer optimizer) {
        this(iterations, populationSize, perturbationRate, uploadLocalState, optimizer, SigmaList.USED,
                Start.GLOBAL_STATE, Ranking.CLEAN_LOSS, Mask.PER_ITERATION);
    }

    /** Uploads at full precision (float64). */
    public ClientSearchConfig(int iterations, int populationSize, double perturbationRate, boolean uploadLocalState,
                              Optimizer optimizer, SigmaList sigmaList, Start start, Ranking ranking, Mask mask) {
        this(iterations, populationSize, perturbationRate, uploadLocalState, optimizer, sigmaList, start, ranking,
                mask, Precision.FLOAT64);
    }

    public ClientSearchConfig {
        if (iterations < 1) {
            throw new IllegalArgumentException("iterations must be >= 1, was " + iterations);
        }
        if (populationSize < 2) {
            throw new IllegalArgumentException("populationSize must be >= 2, was " + populationSize);
        }
        if (optimizer == null || sigmaList == null || start == null || ranking == null || mask == null
                || precision == null) {
            throw new IllegalArgumentException("optimizer, sigmaList, start, ranking, mask and precision must not be"
                    + " null");
        }
        if (!(perturbationRate >= 0 && perturbationRate < 1)) {
            throw new IllegalArgumentException("perturbationRate must be in [0, 1), was " + perturbationRate);
        }
    }

    public static ClientSearchConfig paper() {
        return new ClientSearchConfig(8, 5, 0.5);
    }

    /** Whether the uploaded loss is the ratio fitness (only when there is a perturbed copy to take it from). */
    public boolean ranksByRatio() {
        return ranking == Ranking.RATIO_FITNESS && perturbationRate > 0;
    }
}
