package dev.fedbpt.engine.method;

/**
 * What a method is built from: its settings, the number of federated rounds the experiment runs (a personalised
 * method's personalisation round follows them), the experiment seed (for what the server and every client derive
 * alike, such as a projection), and what it may know of the model.
 */
public record MethodContext(MethodSettings settings, int rounds, long seed, ModelFacts model) {
    public MethodContext {
        if (settings == null || model == null) {
            throw new IllegalArgumentException("settings and model must not be null");
        }
        if (rounds < 0) {
            throw new IllegalArgumentException("rounds must be >= 0, was " + rounds);
        }
    }
}
