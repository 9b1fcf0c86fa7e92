package dev.fedbpt.engine.fedbpt;

/** Local search settings of one client (paper: I = 8 iterations, population 5, perturbation rate 0.5). */
public record ClientSearchConfig(int iterations, int populationSize, double perturbationRate) {
    public ClientSearchConfig {
        if (iterations < 1) {
            throw new IllegalArgumentException("iterations must be >= 1, was " + iterations);
        }
        if (populationSize < 2) {
            throw new IllegalArgumentException("populationSize must be >= 2, was " + populationSize);
        }
        if (!(perturbationRate >= 0 && perturbationRate < 1)) {
            throw new IllegalArgumentException("perturbationRate must be in [0, 1), was " + perturbationRate);
        }
    }

    public static ClientSearchConfig paper() {
        return new ClientSearchConfig(8, 5, 0.5);
    }
}
