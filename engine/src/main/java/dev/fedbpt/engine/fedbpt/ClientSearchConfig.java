package dev.fedbpt.engine.fedbpt;

import dev.fedbpt.engine.cmaes.Cmaes;

/**
 * Local search settings of one client (paper: I = 8 iterations, population 5, perturbation rate 0.5).
 * {@code uploadLocalState}: whether the client's result carries its whole local CMA-ES state (the d x d covariance,
 * 2 MB at d = 500). FedAvg-BBT averages those states; FedBPT uploads only its mean and sigmas (d + I + 1 numbers),
 * so neither the network nor the journal should carry the rest. {@code variant}: how the local CMA-ES samples and
 * updates (the paper's runs: {@link Cmaes.Variant#TUTORIAL}).
 */
public record ClientSearchConfig(int iterations, int populationSize, double perturbationRate,
                                 boolean uploadLocalState, Cmaes.Variant variant) {

    public ClientSearchConfig(int iterations, int populationSize, double perturbationRate) {
        this(iterations, populationSize, perturbationRate, true, Cmaes.Variant.TUTORIAL);
    }

    public ClientSearchConfig(int iterations, int populationSize, double perturbationRate, boolean uploadLocalState) {
        this(iterations, populationSize, perturbationRate, uploadLocalState, Cmaes.Variant.TUTORIAL);
    }

    public ClientSearchConfig {
        if (iterations < 1) {
            throw new IllegalArgumentException("iterations must be >= 1, was " + iterations);
        }
        if (populationSize < 2) {
            throw new IllegalArgumentException("populationSize must be >= 2, was " + populationSize);
        }
        if (variant == null) {
            throw new IllegalArgumentException("variant must not be null");
        }
        if (!(perturbationRate >= 0 && perturbationRate < 1)) {
            throw new IllegalArgumentException("perturbationRate must be in [0, 1), was " + perturbationRate);
        }
    }

    public static ClientSearchConfig paper() {
        return new ClientSearchConfig(8, 5, 0.5);
    }
}
