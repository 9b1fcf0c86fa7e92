package dev.fedbpt.engine.fedbpt;

/** A whole federated experiment; the global search starts at z = 0 with C = I and sigma0. */
public record SimulationConfig(long seed, int rounds, int clients, double sampleFraction, int dimension,
                               double sigma0, ClientSearchConfig search, ServerStrategy strategy) {
    public SimulationConfig {
        if (rounds < 1) {
            throw new IllegalArgumentException("rounds must be >= 1, was " + rounds);
        }
        if (clients < 1) {
            throw new IllegalArgumentException("clients must be >= 1, was " + clients);
        }
        if (!(sampleFraction > 0 && sampleFraction <= 1)) {
            throw new IllegalArgumentException("sampleFraction must be in (0, 1], was " + sampleFraction);
        }
        if (dimension < 1) {
            throw new IllegalArgumentException("dimension must be >= 1, was " + dimension);
        }
        if (!(sigma0 > 0) || !Double.isFinite(sigma0)) {
            throw new IllegalArgumentException("sigma0 must be finite and > 0, was " + sigma0);
        }
        if (search == null || strategy == null) {
            throw new IllegalArgumentException("search and strategy must not be null");
        }
    }
}
